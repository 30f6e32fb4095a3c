#!/bin/bash
# Issue 13, after group commit (one persister per node: one write + one fdatasync per group of
# records, the lock released while it syncs): what the write-ahead log costs each engine —
# durability none, log + fsync never, log + fsync interval (a background sync every 10 ms),
# log + fsync always — with etcd (which syncs its WAL on every commit) beside them. One
# invocation: the harness runs the modes of one engine back to back and reverses systems and
# modes on even repetitions, so every mode's repetitions are interleaved with the others'.
# The same settings as 2026-11-26-durability-slo (before group commit), plus interval.
cd "$(dirname "$0")/../../.."
echo "=== start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"
nice -n 10 npm run bench -- --engine go,cpp,rust,java,etcd --workload a --mem-gib 1 --memory-baseline none \
  --records 5000 --durability none,log --fsync never,interval,always --preset smoke --repetitions 3 \
  --slo-ms 50 --max-probes 5 --tolerance 0.3 --duration-s 3 --warmup-s 1 --disturbed-retries 0 \
  --out data/native/2026-11-27-durability-groupcommit 2>&1 | grep -v '^$' | tail -80
echo "=== done $(date -u +%T) $(cat /proc/loadavg)"
