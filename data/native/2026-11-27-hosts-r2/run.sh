#!/bin/bash
# Issue 16: the engines that could not load at ratio 2 on hosts (data/native/2026-11-27-hosts:
# 20 MiB per node, no footprint) again, now that a hosts run's limit is ratio × data plus the
# engine's measured fixed footprint (bench/src/plan.ts withFootprint, the local run's rule).
# Same setting otherwise: bench/hosts/test.sh's four network namespaces, workload A, 20,000
# records, preset scaled's search, one repetition; one invocation per engine.
#   bash data/native/2026-11-27-hosts-r2/run.sh [ENGINE…]
cd "$(dirname "$0")/../../.."
HERE=data/native/2026-11-27-hosts-r2
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(java rust cpp)
for e in "${engines[@]}"; do
  echo "=== $e start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"
  nice -n 5 bash bench/hosts/test.sh "$HERE/$e" --engine "$e" --workload a --ratio 2 --records 20000 \
    --preset scaled --repetitions 1 2>&1 | grep -v '^$' | tail -40
  echo "=== $e test.sh exit ${PIPESTATUS[0]}"
  echo "=== $e end $(date -u +%T) $(cat /proc/loadavg)"
  bash bench/hosts/leftovers.sh
done
