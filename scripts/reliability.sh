#!/usr/bin/env bash
# The long torture run behind docs/reliability.md: many seeds per engine choice, no shrinking
# (replay any failing seed with the printed command), each report into data/reliability/.
# Usage: bash scripts/reliability.sh [SCALE]   (SCALE multiplies the seed counts; default 1)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
scale=${1:-1}
[[ "$scale" =~ ^[0-9]+$ ]] && [ "$scale" -ge 1 ] || die "SCALE must be a positive integer: $scale"
out=data/reliability
mkdir -p "$out"
run() { # NAME SEEDS ARGS...
  local name=$1 seeds=$(( $2 * scale )); shift 2
  say "torture $name: $seeds seeds"
  npm run --silent torture -- --seeds "$seeds" --no-shrink --report "$out/torture-$name.json" "$@" \
    > "$out/torture-$name.txt" 2>&1 || true  # failures are the report's content
  tail -n 1 "$out/torture-$name.txt" >&2
}
run cpp 1000 --engine cpp
run all 600 --engine all
run go 300 --engine go
run java 300 --engine java
run rust-amnesia 300 --engine rust --amnesia
run rust 3000 --engine rust
