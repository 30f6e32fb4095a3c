# Prints every probe of the shares A/B: p99, others' cores, the benchmark's run-queue wait, and
# the verdict each rule gives (others' cores > 0.25; run-queue wait > 500 µs per slice).
# python3 data/native/2026-11-26-shares-ab/summarize.py data/native/2026-11-26-shares-ab
import glob, json, os, statistics, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
rows = []
for path in sorted(glob.glob(os.path.join(root, 'shares-*-rep*/details/*.jsonl'))):
    run = path.split(os.sep)[-3]
    shares = int(run.split('-')[1])
    for line in open(path):
        d = json.loads(line)
        if d.get('type') != 'probe' or not d.get('interference'):
            continue
        i = d['interference']
        w = i.get('bench_wait') or {}
        rows.append(dict(run=run, shares=shares, kind=d['kind'], target=d['target_ops_per_s'], achieved=d['achieved_ops_per_s'],
                         p99=d['p99_ms'], others=i['other_cores'], load=i['load_1m'], wait_us=w.get('wait_per_slice_us'),
                         wait_share=w.get('wait_share'), threads=w.get('threads'),
                         old_rule='disturbed' if i['other_cores'] > 0.25 else 'clean',
                         new_rule='disturbed' if (w.get('wait_per_slice_us') or 1e9) > 500 else 'clean'))
print('| run | probe | target ops/s | delivered | intended p99 (ms) | others (cores) | load 1 min | run-queue wait µs/slice | wait share | threads | others-rule | wait-rule |')
print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|')
for r in rows:
    p99 = '–' if r['p99'] is None else f"{r['p99']:.1f}"
    print(f"| {r['run']} | {r['kind']} | {r['target']} | {r['achieved']} | {p99} | {r['others']:.2f} | {r['load']:.1f} | {r['wait_us']} | {r['wait_share']} | {r['threads']} | {r['old_rule']} | {r['new_rule']} |")
print()
for shares in sorted({r['shares'] for r in rows}, reverse=True):
    for kind in ('saturation', 'search'):
        g = [r for r in rows if r['shares'] == shares and r['kind'] == kind]
        if not g:
            continue
        def med(k):
            v = [r[k] for r in g if r[k] is not None]
            return f"{statistics.median(v):.2f} [{min(v):.2f}–{max(v):.2f}]" if v else '–'
        print(f"shares {shares}, {kind} probes ({len(g)}): p99 ms {med('p99')}; delivered {med('achieved')}; wait µs/slice {med('wait_us')}; others {med('others')}; load {med('load')}; clean by the wait rule {sum(r['new_rule'] == 'clean' for r in g)}/{len(g)}, by the others rule {sum(r['old_rule'] == 'clean' for r in g)}/{len(g)}")
