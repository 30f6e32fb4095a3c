#!/usr/bin/env python3
"""Which one completed write, had it taken effect twice, explains a violating history?

usage: python3 scripts/lincheck-twice.py HISTORY.jsonl KEY

For every answered put or del on KEY, adds a first copy of it (same call and return, result ok,
under a client id of its own) and asks the Porcupine CLI (npm run lincheck) again; prints the
writes whose doubled history is linearizable. A write resent after its first copy had already
been proposed runs twice, and the history records only the second answer
(docs/reliability.md, the nemesis violations of go 106, go 109 and rust 114)."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def verdict(ops):
    with tempfile.NamedTemporaryFile('w', suffix='.jsonl', delete=False) as f:
        for op in ops:
            f.write(json.dumps(op) + '\n')
    try:
        r = subprocess.run(['npm', 'run', '--silent', 'lincheck', '--', f.name], capture_output=True, text=True, cwd=ROOT)
        lines = r.stdout.strip().splitlines()
        if not lines:
            sys.exit(f'lincheck printed nothing: {r.stderr.strip()}')
        return json.loads(lines[-1])['verdict']
    finally:
        os.unlink(f.name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, key = sys.argv[1], sys.argv[2]
    try:
        ops = [json.loads(line) for line in open(path) if line.strip()]
    except (OSError, ValueError) as e:
        sys.exit(f'{path}: {e}')
    print('as recorded:', verdict(ops))
    fresh = 1 + max(op['client'] for op in ops)
    for i, op in enumerate(ops):
        if op.get('key') != key or op.get('op') == 'get' or op.get('result') == 'unknown':
            continue
        first = {k: op[k] for k in ('op', 'key', 'value', 'call_us', 'return_us') if k in op}
        first.update(client=fresh, result='ok')
        v = verdict(ops + [first])
        if v != 'violation':
            print(f'operation {i} twice: {v}: {json.dumps(op)}')


main()
