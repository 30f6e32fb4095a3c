#!/usr/bin/env bash
# Builds the linearizability checker: the native CLI (dist/lincheck) and the js/wasm module
# (dist/lincheck.wasm + Go's wasm_exec.js) that the simulator's torture runs and the web lab use.
# Go's build cache makes a rebuild with nothing changed take a moment.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p dist
go build -trimpath -o dist/lincheck ./cmd/lincheck
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o dist/lincheck.wasm.tmp ./cmd/lincheck-wasm
# keep the file (and its mtime) when nothing changed, so the web build stays incremental
if cmp -s dist/lincheck.wasm.tmp dist/lincheck.wasm; then rm dist/lincheck.wasm.tmp; else mv dist/lincheck.wasm.tmp dist/lincheck.wasm; fi
cmp -s "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/wasm_exec.js || cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/wasm_exec.js
