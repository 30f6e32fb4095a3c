# Sourced by the libFuzzer-style fuzz.sh of the C++, Rust and Java engines (Jazzer takes
# libFuzzer's flags): parse_fuzz_args DEFAULT_LOG_DIR "$@" sets `budget` (an array of fuzzer
# flags: -runs=N or -max_total_time=S, 60 s by default), `only` (one target, or empty) and `logs`.
parse_fuzz_args() {
  budget=(-max_total_time=60) only= logs=$1
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --inputs) budget=(-runs="$2"); shift 2 ;;
      --seconds) budget=(-max_total_time="$2"); shift 2 ;;
      --logs) logs=$2; shift 2 ;;
      --target) only=$2; shift 2 ;;
      *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
    esac
  done
}
