#!/usr/bin/env bash
# Builds the Rust engine into dist/: the native conformance host and server (release), and the
# WebAssembly module with its wasm-bindgen glue wrapped as a per-node factory. Incremental:
# cargo rebuilds what changed; the wasm-bindgen step reruns only when the module changed.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_PROGRESS_WHEN=never
[ -d "$HOME/.cargo/bin" ] && case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac

need() { command -v "$1" >/dev/null 2>&1 || { echo "rust-wasm/build.sh: $1 not found (run scripts/setup.sh)" >&2; exit 1; }; }
need cargo
need wasm-bindgen
need node
WBG_VERSION=0.2.130
if [ "$(wasm-bindgen --version | awk '{print $2}')" != "$WBG_VERSION" ]; then
  echo "rust-wasm/build.sh: wasm-bindgen $WBG_VERSION needed (the crate is pinned to it)" >&2
  exit 1
fi

mkdir -p dist
cargo build --release --locked -p replicant-host -p replicant-server
cp -p target/release/replicant-host target/release/replicant-server dist/

cargo build --profile wasm --locked --target wasm32-unknown-unknown -p replicant-wasm
raw=target/wasm32-unknown-unknown/wasm/replicant_wasm.wasm
if [ ! -f dist/replicant_wasm_bg.wasm ] || [ "$raw" -nt dist/replicant_wasm_bg.wasm ] \
  || [ wrap-glue.mjs -nt dist/replicant_wasm.js ]; then
  out=target/wasm-bindgen
  rm -rf "$out"
  wasm-bindgen --target web --out-dir "$out" --out-name replicant_wasm "$raw"
  # No wasm-opt: Debian's binaryen 108 rewrites the externref table that wasm-bindgen 0.2.130
  # relies on, and the module then fails at start-up (see README.md).
  node wrap-glue.mjs "$out/replicant_wasm.js" dist/replicant_wasm.js
  cp "$out/replicant_wasm_bg.wasm" dist/replicant_wasm_bg.wasm
fi
ls -l dist/replicant-host dist/replicant-server dist/replicant_wasm_bg.wasm dist/replicant_wasm.js | awk '{print "  " $5 "\t" $9}'
