#!/bin/bash
# Issue 16, A/B: the Go and Java servers of main 4936cbf (FirstEntries sorts every key on each
# status line's Inspect) against this branch's (only the smallest 64 kept), interleaved
# main, fixed, main, fixed. One probe at ~100 ops/s per setting (--max-rate 101: the top probe;
# the minimum, 100, only if it misses), workload B, 100,000 records, ratio 8, SLO p99 <= 50 ms.
# OLD_GO and OLD_JAVA_DIR: the main binaries (a replicant-server and a launcher beside its jar).
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-27-ratio8-tail/ab
for round in 1 2; do
  for side in main fixed; do
    if [ $side = main ]; then env=(REPLICANT_SERVER_GO="$OLD_GO" REPLICANT_SERVER_JAVA="$OLD_JAVA_DIR/replicant-server"); else env=(); fi
    echo "=== $side round $round start $(date -u +%T) $(cat /proc/loadavg)"
    env "${env[@]}" nice -n 5 npm run bench -- --engine go,java --workload b --ratio 8 --vcpus 8 --preset scaled \
      --duration-s 10 --warmup-s 3 --slo-ms 50 --memory-baseline none --max-rate 101 --max-probes 2 \
      --disturbed-retries 0 --repetitions 1 --out $OUT/$side-$round 2>&1 | grep -E '→|SLO|max ' 
    echo "=== end $(date -u +%T) $(cat /proc/loadavg)"
  done
done
