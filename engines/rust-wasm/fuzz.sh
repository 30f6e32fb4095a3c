#!/usr/bin/env bash
# Fuzzes the two parsers that face the network with cargo-fuzz (libFuzzer): the client-line
# parser (`client_line`) and the peer-frame decoder with the strict JSON reader (`peer_frame`).
# A bench command, not part of CI. Needs a nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly; cargo install cargo-fuzz --version 0.13.2
#
#   engines/rust-wasm/fuzz.sh [SECONDS per target, default 60]
#
# The corpus starts from every message and client line in the conformance transcripts. A crash
# leaves its input in fuzz/artifacts/<target>/; turn it into a unit test beside the parser.
set -euo pipefail
cd "$(dirname "$0")"
[ -d "$HOME/.cargo/bin" ] && export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_PER_TARGET=${1:-60}
command -v cargo-fuzz >/dev/null || { echo "fuzz.sh: cargo-fuzz missing: cargo install cargo-fuzz --version 0.13.2" >&2; exit 1; }
rustup run nightly rustc --version >/dev/null 2>&1 || { echo "fuzz.sh: a nightly toolchain is needed (rustup toolchain install nightly)" >&2; exit 1; }

# Seed corpora from the transcripts (one file per distinct input).
seed() { # seed TARGET: reads inputs, one per line, from stdin
  local dir=fuzz/corpus/$1
  mkdir -p "$dir"
  while IFS= read -r line; do
    printf '%s' "$line" > "$dir/seed-$(printf '%s' "$line" | sha1sum | cut -c1-16)"
  done
}
TESTDATA=../conformance/testdata
grep -ho '{"type":"send","msg":.*}' "$TESTDATA"/*.txt | sed -e 's/^{"type":"send","msg"://' -e 's/}$//' | sort -u | seed peer_frame
grep -ho 'line=.*$' "$TESTDATA"/*.txt | sed 's/^line=//' | sort -u | seed client_line
printf 'get k\nput k v\ndel k\nput k  spaced value\n' | seed client_line

cd fuzz
status=0
for target in client_line peer_frame; do
  echo "== $target for ${SECONDS_PER_TARGET}s"
  log=target/$target.log
  mkdir -p target
  set +e
  cargo +nightly fuzz run "$target" -- -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::new_units_added|==[0-9]+==|SUMMARY|Test unit written|thread .* panicked)' "$log" || true
  if [ $rc != 0 ]; then
    status=1
    echo "fuzz.sh: $target found a problem (exit $rc; input in fuzz/artifacts/$target/, log in fuzz/$log)"
  fi
done
[ $status = 0 ] && echo "fuzz.sh: no findings"
exit $status
