#!/usr/bin/env python3
"""Per engine and mode: saturation and SLO rate per repetition, and each repetition's ratio to
durability none of the same repetition (the modes of one engine run back to back, so a ratio
compares windows minutes apart). Reads details/*-repN.jsonl; prints a markdown table."""
import json, glob, os, re, statistics, sys
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = {}
for f in glob.glob(os.path.join(d, 'details', '*-rep*.jsonl')):
    first = json.loads(open(f).readline())
    s = first['setting']
    if s['system'] == 'etcd':
        mode = "etcd's WAL"
    else:
        mode = 'none' if s['durability'] == 'none' else f"log+{s['fsync']}"
    best = first.get('best')
    slo = (best or {}).get('target_ops_per_s') if best else (0 if first.get('floor') else None)
    runs[(s['system'], mode, s['repetition'])] = {'sat': first['saturation_ops_per_s'], 'slo': slo,
                                                 'status': 'disturbed' if first.get('stopped_by') and not best else ('bounded' if first.get('stopped_by') else 'clean')}
def fmt(xs, k=2):
    xs = [x for x in xs if x is not None]
    if not xs: return '–'
    return f"{statistics.median(xs):.{k}f} [{min(xs):.{k}f}–{max(xs):.{k}f}]"
print('| engine | mode | reps | saturation Kops/s | saturation / none (per rep.) | max Kops/s at SLO | SLO rate / none (per rep.) |')
print('|---|---|---:|---|---|---|---|')
order = ['none', 'log+never', 'log+interval', 'log+always', "etcd's WAL"]
for eng in ['go', 'cpp', 'rust', 'java', 'etcd']:
    for mode in order:
        reps = sorted(r for (e, m, r) in runs if e == eng and m == mode)
        if not reps: continue
        sat = [runs[(eng, mode, r)]['sat'] / 1000 for r in reps]
        slo = [None if runs[(eng, mode, r)]['slo'] is None else runs[(eng, mode, r)]['slo'] / 1000 for r in reps]
        rs, rl = [], []
        for r in reps:
            base = runs.get((eng, 'none', r))
            if base and mode != 'none' and base['sat']: rs.append(runs[(eng, mode, r)]['sat'] / base['sat'])
            if base and mode != 'none' and base['slo'] and runs[(eng, mode, r)]['slo'] is not None: rl.append(runs[(eng, mode, r)]['slo'] / base['slo'])
        print(f"| {eng} | {mode} | {len(reps)} | {fmt(sat)} | {fmt(rs, 3) if mode != 'none' else '1'} | {fmt(slo)} | {fmt(rl, 3) if mode != 'none' else '1'} |")
