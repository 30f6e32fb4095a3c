#!/bin/bash
# Issue 15's last "Done when", with today's cores and harness: the Go and Java servers with
# --mitigation blade and without, at ratios 1.5 and 8, three repetitions, the two modes
# interleaved (blade, none on odd repetitions; none, blade on even ones). The settings of
# 2026-11-26-blade but for the SLO search: 5 probes instead of 3, so fewer settings stop
# `bounded`. nice 0, one invocation at a time; the harness records the interference itself.
#   bash data/native/2026-11-27-blade/run.sh > data/native/2026-11-27-blade/run.log 2>&1
# MODES=none REPS=1 runs only that invocation (the redo of none rep 1, README).
cd "$(dirname "$0")/../../.."
OUT=data/native/2026-11-27-blade
for rep in ${REPS:-1 2 3}; do
  if [ $((rep % 2)) = 1 ]; then order="blade none"; else order="none blade"; fi
  order=${MODES:-$order}
  for mode in $order; do
    echo "=== rep $rep mitigation $mode start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"
    npm run bench -- --preset smoke --engine go,java --ratio 1.5,8 --mitigation $mode \
      --slo-ms 50 --max-probes 5 --duration-s 4 --warmup-s 2 --disturbed-retries 0 \
      --out $OUT/$mode-rep$rep 2>&1 | grep -v '^$' | tail -20
    echo "=== rep $rep mitigation $mode end $(date -u +%T) $(cat /proc/loadavg)"
  done
done
echo "=== done $(date -u +%T) $(cat /proc/loadavg)"
python3 data/native/2026-11-26-blade/summarize.py $OUT/blade-rep? $OUT/none-rep? > $OUT/summary.md
