#!/usr/bin/env bash
# Builds the C++ engine into dist/: the conformance host, the native server, the unit tests
# (native) and the WebAssembly module (Emscripten). Idempotent and incremental (CMake + Ninja;
# a configuration step runs only when its build directory is new).
#   JOBS=N     parallel compile jobs (default 2: the machine is shared)
#   SKIP_WASM=1  native only
set -euo pipefail
cd "$(dirname "$0")"
JOBS=${JOBS:-2}
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}  # Debian's emcc needs acorn from here

# copy_if_changed SRC DEST: keeps timestamps stable when nothing changed.
copy_if_changed() {
  if ! cmp -s "$1" "$2"; then cp -p "$1" "$2"; fi
}

configure() {  # configure DIR [cmake args...]
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log" >&2; exit 1; }
  fi
}

mkdir -p build dist
configure build/native cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C build/native -j "$JOBS" --quiet replicant-host replicant-server replicant_tests
for f in replicant-host replicant-server replicant_tests; do copy_if_changed "build/native/$f" "dist/$f"; done

if [ "${SKIP_WASM:-0}" != 1 ]; then
  configure build/wasm emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release
  ninja -C build/wasm -j "$JOBS" --quiet
  copy_if_changed build/wasm/replicant.mjs dist/replicant.mjs
  copy_if_changed build/wasm/replicant.wasm dist/replicant.wasm
fi
