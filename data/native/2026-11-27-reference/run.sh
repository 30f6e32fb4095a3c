#!/bin/bash
# Issue 16: the reference run resumed (2026-11-26-reference finished 3 of 174 settings, all at
# workload A). Same method and preset — scaled, 100,000 records, 5 s + 15 s probes, ≤ 7 probes,
# tolerance 10 %, 3 repetitions, SLO p99 ≤ 50 ms, cpu.shares 262144 — with the searches
# warm-started (bench/src/bisect.ts, warm-start.ts: since hosts9 from the same setting's previous
# repetition, else the previous memory size; the hint probed first).
# Workload B first: none of it ran before. results.json is rewritten after every setting, so a run
# stopped early keeps what finished.
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-27-reference
run() { echo "=== $1 start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"; shift; nice -n 10 npm run bench -- "$@" --preset scaled --slo-ms 50 2>&1 | grep -v '^$' | tail -60; echo "=== end $(date -u +%T) $(cat /proc/loadavg)"; }
run ratios-b --engine cpp,rust,go,java --workload b --ratio 8,2,1.5,1.25 --vcpus 8 --out $OUT/ratios-b
run ratios-a --engine go,cpp,rust,java --workload a --ratio 8,2,1.5,1.25 --vcpus 8 --out $OUT/ratios-a
run vcpus --engine go,cpp,rust,java --workload a,b --ratio 8 --vcpus 4,2,1 --out $OUT/vcpus
run etcd --engine etcd --workload a,b --ratio 8 --vcpus 8 --out $OUT/etcd
