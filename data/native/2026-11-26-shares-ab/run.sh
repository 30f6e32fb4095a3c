#!/bin/bash
# A/B: the same probes with the harness's groups at cpu.shares 262144 and at the kernel's 1024, interleaved
cd /work/wt/benchtrust
OUT=data/native/2026-11-26-shares-ab
for rep in ${REPS:-1 2 3 4}; do
  if [ $((rep % 2)) = 1 ]; then order="262144 1024"; else order="1024 262144"; fi
  for shares in $order; do
    echo "=== rep $rep shares $shares $(date -u +%T) $(cat /proc/loadavg)"
    nice -n 10 npm run bench -- --engine go --preset smoke --records 5000 --mem-gib 0.25 --memory-baseline none \
      --max-rate 2000 --max-probes 2 --disturbed-retries 0 --quiet-wait-s 0 --cpu-shares $shares \
      --out $OUT/shares-$shares-rep$rep 2>&1 | grep -v '^$' | tail -12
  done
done
echo "=== done $(date -u +%T) $(cat /proc/loadavg)"
