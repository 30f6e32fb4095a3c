#!/bin/bash
# Issue 16: the setting where Go and Java missed the SLO at 100 ops/s in 2026-11-27-reference
# (workload B, 100,000 records, preset scaled: 5 s + 15 s probes, SLO p99 <= 50 ms, cpu.shares
# 262144, footprint added), rerun with this branch's servers, Rust interleaved as the control:
# ratios 8 and 2, three repetitions (the plan reverses the system order on even repetitions).
# A shorter search than the reference's (at most 3 probes: the top, the minimum, one step of
# the bisection) to fit the session: the question is whether 100 ops/s meets the SLO.
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-27-ratio8-tail/ratios-b
echo "=== start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"
nice -n 5 npm run bench -- --engine go,java,rust --workload b --ratio 8,2 --vcpus 8 --preset scaled --slo-ms 50 \
  --max-probes 3 --repetitions 3 --out $OUT 2>&1 | grep -v '^$' | tail -80
echo "=== end $(date -u +%T) $(cat /proc/loadavg)"
