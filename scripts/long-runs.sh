#!/usr/bin/env bash
# The issue's long runs in chunks, so a run stopped by a deadline keeps every finished chunk:
#   bash scripts/long-runs.sh torture   seeds per engine choice, round robin over rust, cpp, go, java, all
#   bash scripts/long-runs.sh nemesis   native runs, round robin over the four engines and two mixed clusters
# Each chunk writes data/reliability/long/<tool>-<choice>-<first>.json and .txt; the round robin
# keeps every choice at about the same share of the time. Committed torture chunks are passed
# over whatever their size, so REPLICANT_TORTURE_CHUNK (seeds per chunk for every choice) may
# differ from the run that wrote them. Stops starting chunks after
# REPLICANT_LONG_UNTIL (seconds since the epoch; default: never) or when every choice reached its
# target (REPLICANT_TORTURE_SEEDS, default 10000; REPLICANT_NEMESIS_RUNS, default 100).
# REPLICANT_TORTURE_DURABILITY=log|none makes crashes real restarts (npm run torture --durability);
# its chunks are named torture-<durability>-<choice>-<first>. REPLICANT_TORTURE_CHECKPOINTS=1 (with
# durability log) runs the servers' knobs with checkpoints drawn (--repair 256 --election 256
# --checkpoints), chunks torture-log-checkpoints-<choice>-<first>. REPLICANT_TORTURE_CHOICES overrides
# the engine choices (default: rust cpp go java all); REPLICANT_NEMESIS_CHOICES the nemesis's
# clusters (default: go cpp rust java go+cpp+rust cpp+rust+java).
# Sum the chunks up with: node scripts/long-runs-report.mjs
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
out=${REPLICANT_LONG_OUT:-data/reliability/long}  # another folder for tests
mkdir -p "$out"
until_s=${REPLICANT_LONG_UNTIL:-0}
time_left() { [ "$until_s" = 0 ] || [ "$(date +%s)" -lt "$until_s" ]; }

chunk_seeds() {  # chunk_seeds REPORT: how many seeds a torture chunk's report holds
  node -e 'const n = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).results?.[0]?.seeds;
    if (!Number.isInteger(n) || n < 1) throw new Error(`${process.argv[1]}: no seed count in its results`);
    console.log(n);' "$1"
}

torture() {
  local target=${REPLICANT_TORTURE_SEEDS:-10000}
  # chunk sizes follow each engine's speed (Go's and Java's wasm builds step 5-8x slower);
  # REPLICANT_TORTURE_CHUNK sets one size for every choice (a process costs about 1 CPU s to
  # start, some 20 % of a 40-seed Go or Java chunk)
  declare -A chunk=([rust]=200 [cpp]=200 [go]=40 [java]=40 [all]=40)
  if [ -n "${REPLICANT_TORTURE_CHUNK:-}" ]; then
    [[ $REPLICANT_TORTURE_CHUNK =~ ^[1-9][0-9]*$ ]] || die "REPLICANT_TORTURE_CHUNK must be a positive whole number of seeds, not '$REPLICANT_TORTURE_CHUNK'"
    for e in "${!chunk[@]}"; do chunk[$e]=$REPLICANT_TORTURE_CHUNK; done
  fi
  declare -A next=([rust]=1 [cpp]=1 [go]=1 [java]=1 [all]=1)
  local durability=${REPLICANT_TORTURE_DURABILITY:-} prefix=torture flags=()
  if [ -n "$durability" ]; then prefix=torture-$durability flags=(--durability "$durability"); fi
  if [ -n "${REPLICANT_TORTURE_CHECKPOINTS:-}" ]; then
    [ "$durability" = log ] || die "REPLICANT_TORTURE_CHECKPOINTS needs REPLICANT_TORTURE_DURABILITY=log"
    prefix=$prefix-checkpoints flags+=(--repair 256 --election 256 --checkpoints)
  fi
  local busy=1
  while [ $busy = 1 ] && time_left; do
    busy=0
    for e in ${REPLICANT_TORTURE_CHOICES:-rust cpp go java all}; do
      local from=${next[$e]} n=${chunk[$e]} k
      # committed chunks (of any size) are passed over without costing this choice its turn
      while [ "$from" -le "$target" ] && [ -f "$out/$prefix-$e-$from.json" ]; do
        from=$((from + $(chunk_seeds "$out/$prefix-$e-$from.json")))
      done
      next[$e]=$from
      [ "$from" -le "$target" ] || continue
      time_left || break
      busy=1
      [ $((from + n - 1)) -le "$target" ] || n=$((target - from + 1))
      # nor may a chunk run into a committed one further on: no seed counts twice
      for ((k = from + 1; k < from + n; k++)); do
        if [ -f "$out/$prefix-$e-$k.json" ]; then n=$((k - from)); break; fi
      done
      local base="$out/$prefix-$e-$from"
      say "torture $e${durability:+ (durability $durability)}: seeds $from..$((from + n - 1))"
      npm run --silent torture -- --engine "$e" "${flags[@]}" --from "$from" --seeds "$n" --no-shrink --report "$base.json" \
        >"$base.txt" 2>&1 || true  # failures are the report's content
      tail -n 1 "$base.txt" >&2
      next[$e]=$((from + n))
    done
  done
}

nemesis() {
  # REPLICANT_NEMESIS_FIRST_SEED starts a new series beside committed chunks (their files are
  # named by first seed); REPLICANT_NEMESIS_FLAGS adds options (e.g. --faults kill,pause,restart
  # --durability log)
  local target=${REPLICANT_NEMESIS_RUNS:-100} per=5 seed=${REPLICANT_NEMESIS_FIRST_SEED:-1}
  local extra=(${REPLICANT_NEMESIS_FLAGS:-})
  local choices=(${REPLICANT_NEMESIS_CHOICES:-go cpp rust java go+cpp+rust cpp+rust+java})
  local done_runs=0
  while [ $done_runs -lt "$target" ] && time_left; do
    for c in "${choices[@]}"; do
      time_left || break
      local base="$out/nemesis-$c-$seed"
      # a JVM needs seconds to start and compile its hot paths on this loaded machine: clusters
      # with Java nodes run longer, or their faults land before they ever served
      local duration=${REPLICANT_NEMESIS_DURATION_S:-4}
      case $c in *java*) duration=${REPLICANT_NEMESIS_JAVA_DURATION_S:-12} ;; esac
      if [ ! -f "$base.json" ]; then
        say "nemesis $c: runs $seed..$((seed + per - 1))"
        npm run --silent nemesis -- --engine "$c" --runs $per --seed "$seed" "${extra[@]}" \
          --duration-s "$duration" --tail-s "${REPLICANT_NEMESIS_TAIL_S:-1.5}" \
          --out "${REPLICANT_NEMESIS_OUT:-/tmp/replicant-nemesis-histories}" --report "$base.json" >"$base.txt" 2>&1 || true
        tail -n 1 "$base.txt" >&2
      fi
    done
    seed=$((seed + per)); done_runs=$((done_runs + per))
  done
}

[ $# -gt 0 ] || die "usage: bash scripts/long-runs.sh torture|nemesis"
for tool in "$@"; do
  case $tool in
    torture) torture ;;
    nemesis) nemesis ;;
    *) die "unknown long run $tool (torture, nemesis)" ;;
  esac
done
