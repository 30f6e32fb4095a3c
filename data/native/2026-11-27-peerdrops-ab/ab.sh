#!/usr/bin/env bash
# A/B/C: old = 854efd6 build; new = main's head build; newd1 = head build with jemalloc's
# dirty_decay_ms back at 1000 (_RJEM_MALLOC_CONF), the other server change in between.
cd /work/wt/benchtrust
DIST=engines/rust-wasm/dist/replicant-server
for i in 1 2 3; do
  for v in old new newd1; do
    [ -f /tmp/pd/STOP ] && break 2
    b=$v; extra=
    [ $v = newd1 ] && { b=new; extra="_RJEM_MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0"; }
    cp -p /tmp/pd/bins/$b/replicant-server $DIST
    log=/tmp/pd/runs/$i-$v.log
    echo "== run $i $v $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg) sha $(sha1sum $DIST | cut -c1-12) $extra" > $log
    env $extra REPLICANT_BENCH_KEEP_SCRATCH=1 REPLICANT_BENCH_ENGINES=rust nice -n 10 npm --workspace @replicant/bench run test:memory >> $log 2>&1
    echo "rc=$? end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $log
  done
done
cp -p /tmp/pd/bins/new/replicant-server $DIST
echo done > /tmp/pd/runs/DONE
