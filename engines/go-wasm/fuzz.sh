#!/usr/bin/env bash
# Fuzzes the client-line parser and the peer-frame decoder with `go test -fuzz`, SECONDS each
# (default 60). Not part of `npm test`; new crashers land in core/testdata/fuzz/ and are then
# replayed by every `go test` as regression cases.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
for target in FuzzParseCommand FuzzPeerFrame; do
  echo "== $target for ${secs}s"
  go test ./core -run='^$' -fuzz="^${target}\$" -fuzztime="${secs}s"
done
