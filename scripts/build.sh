#!/usr/bin/env bash
# Builds everything the lab and the tests need. Incremental where the tools allow it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# The Go reference engine: the C++ suites compare against it (mixed clusters, differential).
say "build: Go engine (host, server, wasm)"
bash engines/go-wasm/build.sh

say "build: C++ engine (host, server, unit tests, wasm)"
bash engines/cpp-wasm/build.sh
