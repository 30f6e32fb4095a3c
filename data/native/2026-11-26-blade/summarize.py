# One line per setting and repetition from the harness's details, then median [min–max] per
# setting over the repetitions: throughput at the SLO (the best probe that met it), its p99 and
# p99.9 (intended), saturation, leader changes, disturbance evidence (others' cores, the
# benchmark's run-queue wait, load).
#   python3 summarize.py DIR [DIR…]    (each DIR holds runs: */details/*.jsonl)
import glob, json, os, re, statistics, sys

def probes_of(d):
    return [p for p in (d.get('best'), d.get('floor'), d.get('stopped_by')) if p]

def rejudge(p):
    i = p.get('interference') or {}
    w = i.get('bench_wait') or {}
    return (w.get('wait_per_slice_us') or 0) > 500 and (i.get('other_cores') or 0) > 0.25

rows = []
for root in sys.argv[1:]:
    for path in sorted(glob.glob(os.path.join(root, '**/details/*.jsonl'), recursive=True)):
        lines = [json.loads(l) for l in open(path)]
        s = next(l for l in lines if l.get('type') == 'setting')
        st = s['setting']
        key = re.sub(r'-rep\d+$', '', st['id'])
        best, floor = s.get('best'), s.get('floor')
        shown = best or floor or s.get('stopped_by')
        i = (shown or {}).get('interference') or {}
        w = i.get('bench_wait') or {}
        search = [l for l in lines if l.get('type') == 'probe' and l.get('kind') == 'search']
        status = 'clean' if best and not best.get('disturbed') else 'bounded' if best else 'disturbed' if (s.get('stopped_by') or (floor and floor.get('disturbed'))) else 'failed' if not floor else 'missed'
        rows.append(dict(
            key=key, run=path.split(os.sep)[-3], status=status,
            slo_kops=(best['target_ops_per_s'] / 1000) if best else (0 if floor else None),
            p99=(shown or {}).get('p99_ms'), p999=((shown or {}).get('intended') or {}).get('p999_us'),
            at=(shown or {}).get('target_ops_per_s'),
            sat_kops=s['saturation_ops_per_s'] / 1000, leader_changes=max(0, len(s.get('leader_changes', [])) - 1),
            others=i.get('other_cores'), wait=w.get('wait_per_slice_us'), load=i.get('load_1m'),
            disturbed_probes=sum(1 for p in search if p.get('disturbed')), probes=len(search),
            # the final rule (commit 53c0c1f), re-applied to the recorded evidence: a run-queue
            # wait over 500 µs per slice while others used more than 0.25 cores
            rejudged=sum(1 for p in search if rejudge(p)), errors=s.get('errors')))

def fmt(v, d=2):
    return '–' if v is None else f'{v:.{d}f}' if isinstance(v, float) else str(v)

print('| setting | run | status | max Kops/s at SLO | at ops/s | intended p99 (ms) | p99.9 (ms) | saturation Kops/s | leader changes | disturbed search probes (harness / final rule) | others (cores) | run-queue wait µs/slice | load |')
print('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for r in sorted(rows, key=lambda r: (r['key'], r['run'])):
    p999 = None if r['p999'] is None or r['p999'] != r['p999'] or r['p999'] == float('inf') else r['p999'] / 1000
    print(f"| {r['key']} | {r['run']} | {r['status']} | {fmt(r['slo_kops'], 3)} | {fmt(r['at'])} | {fmt(r['p99'], 1)} | {fmt(p999, 1)} | {fmt(r['sat_kops'], 2)} | {r['leader_changes']} | {r['disturbed_probes']} / {r['rejudged']} of {r['probes']} | {fmt(r['others'])} | {fmt(r['wait'], 0)} | {fmt(r['load'], 1)} |")
print()
print('| setting | repetitions | clean | max Kops/s at SLO | intended p99 (ms) | p99.9 (ms) | saturation Kops/s | leader changes | others (cores) | run-queue wait µs/slice | load |')
print('|---|---:|---:|---|---|---|---|---|---|---|---|')
def mm(vals, d=2):
    v = [x for x in vals if x is not None and x == x and x != float('inf')]
    if not v:
        return '–'
    return f'{statistics.median(v):.{d}f} [{min(v):.{d}f}–{max(v):.{d}f}]'
for key in sorted({r['key'] for r in rows}):
    g = [r for r in rows if r['key'] == key]
    print(f"| {key} | {len(g)} | {sum(r['status'] == 'clean' for r in g)} | {mm([r['slo_kops'] for r in g], 3)} | {mm([r['p99'] for r in g], 1)} | {mm([None if r['p999'] is None else r['p999'] / 1000 for r in g], 1)} | {mm([r['sat_kops'] for r in g])} | {mm([float(r['leader_changes']) for r in g], 0)} | {mm([r['others'] for r in g])} | {mm([r['wait'] for r in g], 0)} | {mm([r['load'] for r in g], 1)} |")
