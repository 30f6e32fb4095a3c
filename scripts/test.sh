#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, then runs every suite of the repository.
# Each suite runs even if an earlier one failed; the summary lists them all and the exit
# status is non-zero if any failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

bash scripts/setup.sh || die "set-up failed"
bash scripts/build.sh || die "build failed"

declare -a RESULTS=()
FAILED=0

# suite NAME CMD...: run one suite, record its outcome and duration.
suite() {
  local name=$1; shift
  say "suite: $name"
  local t0=$SECONDS
  if "$@"; then RESULTS+=("PASS  $name ($((SECONDS - t0)) s)")
  else RESULTS+=("FAIL  $name ($((SECONDS - t0)) s)"); FAILED=1; fi
}

# --- the suites (one line each; keep them in dependency order) ---
source scripts/suites.sh

say "summary"
printf '  %s\n' "${RESULTS[@]}"
exit $FAILED
