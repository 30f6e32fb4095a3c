#!/usr/bin/env bash
# Builds the Go engine: the native conformance host and server, and the js/wasm module.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p dist
go build -trimpath -o dist/replicant-host ./cmd/replicant-host
go build -trimpath -o dist/replicant-server ./cmd/replicant-server
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o dist/replicant.wasm ./cmd/replicant-wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/wasm_exec.js
