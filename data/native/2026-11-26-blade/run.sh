#!/bin/bash
# Issue 15: the Go and Java servers with --mitigation blade and without, at ratios 1.5 and 8,
# three repetitions, the two modes interleaved (order reversed on even repetitions).
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-26-blade
for rep in ${REPS:-1 2 3}; do
  if [ $((rep % 2)) = 1 ]; then order="blade none"; else order="none blade"; fi
  for mode in $order; do
    echo "=== rep $rep mitigation $mode $(date -u +%T) $(cat /proc/loadavg)"
    nice -n 10 npm run bench -- --preset smoke --engine go,java --ratio 1.5,8 --mitigation $mode \
      --slo-ms 50 --max-probes 3 --duration-s 4 --warmup-s 2 --disturbed-retries 0 \
      --out $OUT/$mode-rep$rep 2>&1 | grep -v '^$' | tail -14
  done
done
echo "=== done $(date -u +%T) $(cat /proc/loadavg)"
