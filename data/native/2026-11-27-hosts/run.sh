#!/bin/bash
# Issue 16: the longer run of the full Ansible path (`npm run bench -- --hosts`) against four
# network namespaces with sshd (bench/hosts/test.sh: s0 s1 s2 servers, c0 the YCSB client).
# Workload A, 20,000 records, ratios 8 and 2, preset scaled's probes (5 s warm-up + 15 s, at
# most 7 per search, tolerance 10 %), one repetition. One invocation per engine, so that each
# engine that finishes is complete (both ratios) and the namespaces are made and removed, and
# checked, once per engine. Order: the two collected runtimes first (Go, Java), then Rust, C++.
#   bash data/native/2026-11-27-hosts/run.sh [ENGINE…]
cd "$(dirname "$0")/../../.."
HERE=data/native/2026-11-27-hosts
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(go java rust cpp)
for e in "${engines[@]}"; do
  echo "=== $e start $(date -u +%T) $(cat /proc/loadavg) $(git rev-parse --short HEAD)"
  nice -n 5 bash bench/hosts/test.sh "$HERE/$e" --engine "$e" --workload a --ratio 8,2 --records 20000 \
    --preset scaled --repetitions 1 2>&1 | grep -v '^$' | tail -40
  echo "=== $e test.sh exit ${PIPESTATUS[0]}"
  echo "=== $e end $(date -u +%T) $(cat /proc/loadavg)"
  bash bench/hosts/leftovers.sh
done
