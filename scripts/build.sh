#!/usr/bin/env bash
# Builds everything the lab and the tests need. Incremental where the tools allow it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

say "build: Go engine (native host and server, js/wasm)"
bash engines/go-wasm/build.sh

say "build: Rust engine (native host and server, wasm)"
bash engines/rust-wasm/build.sh

say "build: Java engine (host, server, TeaVM JavaScript and WasmGC)"
bash engines/java-wasm/build.sh

say "build: native benchmarks (YCSB bindings, etcd)"
bash bench/build.sh

say "build: C++ engine (host, server, unit tests, wasm)"
bash engines/cpp-wasm/build.sh

say "build: linearizability checker (Porcupine: CLI and js/wasm)"
bash checker/build.sh

# The web lab bundles every engine's wasm build, so it comes last (web/src/engines.ts).
say "build: web lab (with Pyodide copied into web/dist/pyodide)"
npm --workspace @replicant/web run --silent build >/dev/null
