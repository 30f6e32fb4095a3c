#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently: Debian packages, Rust targets and
# tools, npm and pip packages. Safe to run again and again; fast when everything is there.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# --- C++ engine (engines/cpp-wasm): GCC, CMake + Ninja, GoogleTest, Debian's Emscripten (wasm),
# clang-14 with its libFuzzer/sanitizer runtimes (fuzz.sh), python3 (server test).
cpp_packages=(g++ cmake ninja-build libgtest-dev emscripten binaryen clang-14 libclang-rt-14-dev python3)
cpp_missing=()
for p in "${cpp_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || cpp_missing+=("$p")
done
if [ ${#cpp_missing[@]} -gt 0 ]; then
  say "installing for the C++ engine: ${cpp_missing[*]}"
  as_root apt-get update
  as_root apt-get install -y "${cpp_missing[@]}"
fi
