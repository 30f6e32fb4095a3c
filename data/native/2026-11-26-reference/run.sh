#!/bin/bash
# Issue 16: the reference run — four engines × workloads A and B × ratios 8, 2, 1.5, 1.25; the
# vCPU sweep (4, 2, 1) at ratio 8; etcd at ratio 8 — preset scaled (100,000 records, 5 s + 15 s
# probes, ≤ 7 probes, 3 repetitions), SLO p99 ≤ 50 ms, cpu.shares 262144 (the default).
# About 11 hours in all (--dry-run: 364 + 273 + 23 min at most); results.json is rewritten after
# every setting, so a run stopped early keeps what finished.
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-26-reference
run() { echo "=== $1 start $(date -u +%T) $(cat /proc/loadavg)"; shift; nice -n 10 npm run bench -- "$@" --preset scaled --slo-ms 50 2>&1 | grep -v '^$' | tail -40; echo "=== end $(date -u +%T) $(cat /proc/loadavg)"; }
run ratios --engine go,cpp,rust,java --workload a,b --ratio 8,2,1.5,1.25 --vcpus 8 --out $OUT/ratios
run vcpus --engine go,cpp,rust,java --workload a,b --ratio 8 --vcpus 4,2,1 --out $OUT/vcpus
run etcd --engine etcd --workload a,b --ratio 8 --vcpus 8 --out $OUT/etcd
