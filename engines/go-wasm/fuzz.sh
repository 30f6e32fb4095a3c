#!/usr/bin/env bash
# Fuzzes the Go engine's untrusted-input parsers with `go test -fuzz`:
#   FuzzParseCommand  the client-line parser
#   FuzzPeerFrame     the peer-frame decoder, and a node stepping the frame
#   FuzzWALRecords    the server's write-ahead log reader, the record decoder and a restart
# Usage: engines/go-wasm/fuzz.sh [--inputs N | --seconds S] [--target NAME] [--logs DIR]
#   (default --seconds 60; `npm run fuzz -- --engine go --inputs N` calls this and reads the
#   logs, DIR/<target>.log, into figures). A crash lands in core/testdata/fuzz/ or
#   server/testdata/fuzz/ and `go test` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")"
budget=60s only= logs=build/fuzz-logs
while [ $# -gt 0 ]; do
  case $1 in
    --inputs) budget="${2}x"; shift 2 ;;
    --seconds) budget="${2}s"; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --target) only=$2; shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$logs"
status=0
for spec in core:FuzzParseCommand core:FuzzPeerFrame server:FuzzWALRecords; do
  pkg=${spec%%:*} target=${spec#*:}
  [ -z "$only" ] || [ "$only" = "$target" ] || continue
  log=$logs/$target.log
  echo "== $target ($budget)" >&2
  if ! go test "./$pkg" -run='^$' -fuzz="^${target}\$" -fuzztime="$budget" >"$log" 2>&1; then
    status=1
    tail -30 "$log" >&2
    echo "$target: FAILED (the failing input is in $pkg/testdata/fuzz/$target/)" >&2
  fi
done
exit $status
