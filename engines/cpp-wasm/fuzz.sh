#!/usr/bin/env bash
# Fuzzes the C++ engine's untrusted-input parsers with libFuzzer (Debian's clang-14, with
# AddressSanitizer and UBSan):
#   fuzz_client_line  the client text protocol's line parser, also through a node
#   fuzz_peer_frame   the peer-frame decoder (one JSON line) and the event decoder behind step()
#   fuzz_wal_records  the server's write-ahead log reader (server/wal.cc), the record decoder
#                     and a restart from the records
# Usage: bash engines/cpp-wasm/fuzz.sh [--inputs N | --seconds S] [--target NAME] [--logs DIR]
#   (default --seconds 60; `npm run fuzz -- --engine cpp --inputs N` calls this and reads the
#   logs, DIR/<target>.log, into figures).
# The growing corpus lives in build/fuzz-corpus/, crash inputs in build/fuzz-artifacts/.
# A crash input becomes a regression test in src/*_test.cc. Leak checks are off per input (the
# targets keep nodes alive across inputs on purpose); the ASan unit-test run checks for leaks.
set -euo pipefail
cd "$(dirname "$0")"
source ../fuzz-args.sh
parse_fuzz_args build/fuzz-logs "$@"
CXX=${FUZZ_CXX:-clang++-14}
command -v "$CXX" >/dev/null || { echo "fuzz.sh: $CXX not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }

if [ ! -f build/fuzz/build.ninja ]; then
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DREPLICANT_SANITIZE=ON -DREPLICANT_FUZZ=ON \
    -DREPLICANT_TESTS=OFF >build/fuzz.configure.log 2>&1 || { cat build/fuzz.configure.log >&2; exit 1; }
fi
targets=(fuzz_client_line fuzz_peer_frame fuzz_wal_records)
[ -z "$only" ] || targets=("$only")
ninja -C build/fuzz -j "${JOBS:-2}" --quiet "${targets[@]}"

status=0
mkdir -p "$logs"
run() {  # run TARGET MAX_LEN [extra libFuzzer flags]
  local target=$1 max_len=$2; shift 2
  [ -z "$only" ] || [ "$only" = "$target" ] || return 0
  local corpus=build/fuzz-corpus/${target#fuzz_} artifacts=build/fuzz-artifacts/${target#fuzz_}/
  mkdir -p "$corpus" "$artifacts"
  echo "==> $target (${budget[*]})" >&2
  if ./build/fuzz/"$target" "${budget[@]}" -max_len="$max_len" \
      -artifact_prefix="$artifacts" -print_final_stats=1 -detect_leaks=0 "$@" \
      "$corpus" "fuzz/corpus/${target#fuzz_}" >"$logs/$target.log" 2>&1; then
    grep -E '^(Done|stat::number_of_executed_units)' "$logs/$target.log" >&2 || true
  else
    status=1
    tail -40 "$logs/$target.log" >&2
    echo "$target: FAILED; crash input in $artifacts (copy it into fuzz/corpus/${target#fuzz_}/ with its regression test)" >&2
  fi
}
run fuzz_client_line 4096
run fuzz_peer_frame 8192 -dict=fuzz/peer_frame.dict
run fuzz_wal_records 8192
exit $status
