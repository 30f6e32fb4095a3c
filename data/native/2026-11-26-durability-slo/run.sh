#!/bin/bash
# Issue 13: what the write-ahead log costs each engine — durability none, log + fsync never,
# log + fsync always — with etcd (which always fsyncs its WAL) beside them. One invocation: the
# harness interleaves the modes of one engine back to back and reverses systems and modes on
# even repetitions.
cd "$(dirname "$0")/../../.."
echo "=== start $(date -u +%T) $(cat /proc/loadavg)"
nice -n 10 npm run bench -- --engine go,cpp,rust,java,etcd --workload a --mem-gib 1 --memory-baseline none \
  --records 5000 --durability none,log --fsync never,always --preset smoke --repetitions 3 \
  --slo-ms 50 --max-probes 5 --tolerance 0.3 --duration-s 3 --warmup-s 1 --disturbed-retries 0 \
  --out data/native/2026-11-26-durability-slo 2>&1 | grep -v '^$' | tail -60
echo "=== done $(date -u +%T) $(cat /proc/loadavg)"
