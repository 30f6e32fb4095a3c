#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, then runs every suite of the repository.
# Each suite runs even if an earlier one failed; the summary lists them all and the exit
# status is non-zero if any failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

bash scripts/setup.sh || die "set-up failed"
bash scripts/build.sh || die "build failed"

declare -a PASSED=() FAILED_SUITES=()
FAILED=0
# Each suite's output is also kept in a log, so that the summary can quote a failure: a CI
# page often shows only the end of a long run.
LOG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/replicant-test-XXXXXX")

# suite NAME CMD...: run one suite, record its outcome and duration.
suite() {
  local name=$1; shift
  say "suite: $name"
  local t0=$SECONDS status=0
  # A process substitution, not a pipe: a daemon a suite leaves behind holding the output
  # open must not keep the run waiting for tee.
  "$@" > >(tee "$LOG_DIR/$name.log") 2>&1 || status=$?
  if [ "$status" = 0 ]; then PASSED+=("$name ($((SECONDS - t0)) s)")
  else FAILED_SUITES+=("$name ($((SECONDS - t0)) s, exit $status)"); FAILED=1; fi
}

# --- the suites (one line each; keep them in dependency order) ---
source scripts/suites.sh

say "summary: ${#PASSED[@]} passed, ${#FAILED_SUITES[@]} failed, ${SECONDS} s; logs in $LOG_DIR"
echo "  passed: ${PASSED[*]}" | fold -s -w 160
for f in "${FAILED_SUITES[@]}"; do
  echo "  FAIL  $f"
  node scripts/failure-lines.mjs "$LOG_DIR/${f%% (*}.log" 8 | sed 's/^/        /'
done
exit $FAILED
