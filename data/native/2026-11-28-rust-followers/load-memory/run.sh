#!/bin/bash
# Issue 16: what each Rust node holds while a 3-node cluster loads 100,000 records of 510 bytes
# (~the benchmark's 52.3 MB of YCSB data), main's server (d366e86, 32 KiB peer socket buffers)
# against this branch's (1 MiB, and a snapshot's line buffer freed once decoded), interleaved,
# three pairs. MAIN_SERVER and FIXED_SERVER are the two replicant-server binaries.
cd "$(dirname "$0")/../../../.."
echo "=== start $(date -u +%T) $(cat /proc/loadavg)"
nice -n 10 npm run --silent cluster:load-memory -- --engine rust --variants "main=$MAIN_SERVER,fixed=$FIXED_SERVER" \
  --repetitions 3 --out data/native/2026-11-28-rust-followers/load-memory/load-memory.jsonl
echo "=== end $(date -u +%T) $(cat /proc/loadavg)"
