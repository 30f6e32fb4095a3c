#!/usr/bin/env bash
# The long torture run behind docs/reliability.md: many seeds per engine choice, no shrinking
# (replay any failing seed with the printed command), each report into data/reliability/.
# Usage: bash scripts/reliability.sh [NAME ...]   (default: every run below; NAME picks some)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
out=data/reliability
mkdir -p "$out"
declare -A SEEDS=([rust]=3000 [cpp]=1000 [all]=600 [go]=300 [java]=300 [rust-amnesia]=300 [rust-check-quorum]=300)
declare -A ARGS=([rust]="--engine rust" [cpp]="--engine cpp" [all]="--engine all" [go]="--engine go" [java]="--engine java"
  [rust-amnesia]="--engine rust --amnesia" [rust-check-quorum]="--engine rust --check-quorum")
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(rust cpp all go java rust-amnesia rust-check-quorum)
for name in "${names[@]}"; do
  [ -n "${SEEDS[$name]:-}" ] || die "unknown run $name (${!SEEDS[*]})"
  seeds=${REPLICANT_RELIABILITY_SEEDS:-${SEEDS[$name]}}
  say "torture $name: $seeds seeds"
  # shellcheck disable=SC2086
  npm run --silent torture -- --seeds "$seeds" --no-shrink --report "$out/torture-$name.json" ${ARGS[$name]} \
    > "$out/torture-$name.txt" 2>&1 || true  # failures are the report's content
  tail -n 1 "$out/torture-$name.txt" >&2
done
