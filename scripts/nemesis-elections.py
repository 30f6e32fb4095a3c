#!/usr/bin/env python3
"""Elections per second against timer lateness, from the servers' status lines.

usage: python3 scripts/nemesis-elections.py DIR...   (DIR: a nemesis --out directory, or *-logs in it)

Every native server logs a status line about once a second with its election count and the
latest any of its timers fired in that second (timer_late_max_ms). A follower campaigns when no
commit came within its election delay (1.5-2 commit intervals, docs/protocol.md), so heartbeats
late by more than half a commit interval start elections: this prints, per engine, how many
elections a node ran per status interval, bucketed by how late its timers were in it.
"""
import collections
import glob
import os
import re
import sys

LINE = re.compile(r'^(?:\[(\w+) n\d\]|replicant-server\[\d\]:).*? status (\{.*)')
BUCKETS = [(0, 25), (25, 50), (50, 100), (100, 250), (250, None)]


def logs(paths):
    for p in paths:
        if os.path.isdir(p) and glob.glob(os.path.join(p, 'node-*.log')):
            yield from sorted(glob.glob(os.path.join(p, 'node-*.log')))
        else:
            for d in sorted(glob.glob(os.path.join(p, '*-logs'))):
                yield from sorted(glob.glob(os.path.join(d, 'node-*.log')))


def main(paths):
    rows = collections.defaultdict(list)
    for f in logs(paths):
        prev = None
        for line in open(f, errors='replace'):
            m = LINE.match(line)
            if not m:
                if ' of ' in line and 'peers on' in line:
                    prev = None  # the node restarted: its counters start again
                continue
            # "replicant-server[I]: …" was the Rust and Java servers' prefix before their lines
            # carried the time (2026-11-27); now every server writes "[ENGINE nI] TIME …"
            engine = m.group(1) or 'replicant-server[I] (rust or java before their time stamps)'
            e = re.search(r'"elections":(\d+)', m.group(2))
            late = re.search(r'"timer_late_max_ms":(\d+)', m.group(2))
            if not e or not late:
                continue
            e = int(e.group(1))
            if prev is not None and e >= prev:
                rows[engine].append((int(late.group(1)), e - prev))
            prev = e
    if not rows:
        sys.exit('no status lines found under ' + ' '.join(paths))
    for engine, r in sorted(rows.items()):
        parts = []
        for lo, hi in BUCKETS:
            xs = [d for late, d in r if lo <= late and (hi is None or late < hi)]
            label = f'{lo}-{hi}' if hi else f'>{lo}'
            parts.append(f'{label} ms: {len(xs)} intervals, {sum(xs) / len(xs):.2f} elections' if xs else f'{label} ms: -')
        total = sum(d for _, d in r)
        print(f'{engine}: {len(r)} status intervals, {total / len(r):.2f} elections per interval; timers late ' + '; '.join(parts))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
