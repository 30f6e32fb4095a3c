#!/usr/bin/env bash
# Builds everything the lab and the tests need. Incremental where the tools allow it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash engines/rust-wasm/build.sh
