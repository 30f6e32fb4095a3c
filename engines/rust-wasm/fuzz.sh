#!/usr/bin/env bash
# Fuzzes the Rust engine's untrusted-input parsers with libFuzzer through libfuzzer-sys (the
# crate cargo-fuzz drives), built on the STABLE toolchain: cargo-fuzz itself wants nightly for
# its sanitizer flags, so this script passes the SanitizerCoverage flags it would pass
# (-Cpasses=sancov-module and the -sanitizer-coverage-* options, all stable) and builds the
# fuzz/ crate with plain `cargo build`. No AddressSanitizer (nightly only); the code under test
# has no `unsafe`, and debug assertions and overflow checks are on.
#   client_line  the client-line parser
#   peer_frame   the peer-frame decoder (with the strict JSON reader) and a node stepping it
#   wal_records  the server's write-ahead log reader (server/src/wal.rs), the record decoder
#                and a restart
# Usage: engines/rust-wasm/fuzz.sh [--inputs N | --seconds S] [--target NAME] [--logs DIR]
#   (default --seconds 60; `npm run fuzz -- --engine rust --inputs N` calls this and reads the
#   logs, DIR/<target>.log, into figures)
# The corpus starts from fuzz/corpus/<target>/ (committed: seeds and every crash found, each
# with its unit test beside the parser) plus every message and client line in the conformance
# transcripts; new entries go to fuzz/target/corpus/<target>/, crashes to fuzz/target/artifacts/.
set -euo pipefail
cd "$(dirname "$0")"
[ -d "$HOME/.cargo/bin" ] && export PATH="$HOME/.cargo/bin:$PATH"
source ../fuzz-args.sh
parse_fuzz_args fuzz/target/fuzz-logs "$@"
mkdir -p "$logs" fuzz/target/corpus fuzz/target/artifacts

# Seed corpora from the transcripts (one file per distinct input), beside the fuzzer's own finds.
seed() { # seed TARGET: reads inputs, one per line, from stdin (once: the corpus keeps them)
  local dir=fuzz/target/corpus/$1 n=0
  mkdir -p "$dir"
  if [ -n "$(ls -A "$dir")" ]; then cat >/dev/null; return; fi
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" > "$dir/seed-$n"
  done
}
# The transcripts' expected lines in canonical form (the cores' exact bytes; the files show them readable).
canonical=$(cd .. && npm run --silent conformance -- --canonical)
grep -ho '{"type":"send","msg":.*}' <<<"$canonical" | sed -e 's/^{"type":"send","msg"://' -e 's/}$//' | sort -u | seed peer_frame
grep -ho 'line=.*$' ../conformance/testdata/*.txt | sed 's/^line=//' | sort -u | seed client_line
mkdir -p fuzz/target/corpus/wal_records

# What `cargo fuzz build` passes, less the nightly-only sanitizer flag.
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks -Cforce-frame-pointers"
echo "== building the fuzz targets (stable $(rustc --version | cut -d' ' -f2), libfuzzer-sys)" >&2
# an explicit --target keeps RUSTFLAGS off the build scripts (as cargo-fuzz does)
host=$(rustc -vV | sed -n 's/^host: //p')
cargo build --release --manifest-path fuzz/Cargo.toml --target "$host" --target-dir fuzz/target/build --bins --quiet
bin=fuzz/target/build/$host/release

status=0
for target in client_line peer_frame wal_records; do
  [ -z "$only" ] || [ "$only" = "$target" ] || continue
  echo "== $target (${budget[*]})" >&2
  mkdir -p "fuzz/target/artifacts/$target"
  if ! "$bin/$target" "${budget[@]}" -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="fuzz/target/artifacts/$target/" \
      "fuzz/target/corpus/$target" "fuzz/corpus/$target" >"$logs/$target.log" 2>&1; then
    status=1
    tail -30 "$logs/$target.log" >&2
    echo "$target: FAILED; the input is in fuzz/target/artifacts/$target/ (copy it into fuzz/corpus/$target/ with a unit test beside the parser)" >&2
  fi
done
exit $status
