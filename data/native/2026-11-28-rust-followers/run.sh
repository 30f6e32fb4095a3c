#!/bin/bash
# Issue 16: Rust at ratios 8 and 2 with this branch's server (peer socket buffers 1 MiB, a
# snapshot's line buffer freed once decoded), the command of 2026-11-27-ratio8-tail restricted
# to rust: workload B, 100,000 records, preset scaled (5 s + 15 s probes, SLO p99 <= 50 ms,
# cpu.shares 262144, footprint added), at most 3 probes per setting.
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-28-rust-followers/ratios-b
echo "=== start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"
nice -n 10 npm run bench -- --engine rust --workload b --ratio 8,2 --vcpus 8 --preset scaled --slo-ms 50 \
  --max-probes 3 --repetitions "${REPETITIONS:-3}" --out $OUT 2>&1 | grep -v '^$' | tail -80
echo "=== end $(date -u +%T) $(cat /proc/loadavg)"
