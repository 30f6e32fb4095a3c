#!/usr/bin/env bash
# The C++ engine's own test suites (scripts/suites.sh calls these; build.sh must have run):
#   bash engines/cpp-wasm/test.sh unit    GoogleTest unit tests (the -O2 build in dist/)
#   bash engines/cpp-wasm/test.sh asan    the same tests built with AddressSanitizer + UBSan
#                                         (and LeakSanitizer at exit); builds build/asan once,
#                                         then incrementally
#   bash engines/cpp-wasm/test.sh server  the shared native cluster test (bad configs, 1,000
#                                         keys, redirects, concurrent clients, bad input,
#                                         failover, restart) on C++ alone and mixed clusters
#   bash engines/cpp-wasm/test.sh differential  random histories, Go (reference) vs C++ on the
#                                         native and wasm-node targets (needs Go's build)
#   bash engines/cpp-wasm/test.sh tsan    the shared cluster test against a ThreadSanitizer
#                                         build of the server (a bench check, not in CI: ~2 min
#                                         build); fails if any node logs a data race
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-unit}" in
  unit)
    ./dist/replicant_tests --gtest_brief=1
    ;;
  asan)
    if [ ! -f build/asan/build.ninja ]; then
      mkdir -p build
      cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
        -DREPLICANT_SANITIZE=ON >build/asan.configure.log 2>&1 || { cat build/asan.configure.log >&2; exit 1; }
    fi
    ninja -C build/asan -j "${JOBS:-2}" --quiet replicant_tests
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ./build/asan/replicant_tests --gtest_brief=1
    ;;
  server)
    cd ../.. && REPLICANT_CLUSTER_ENGINES='cpp,cpp,cpp;go,cpp,go;cpp,go,cpp;cpp,java,go' \
      npm --workspace @replicant/engines exec -- vitest run cluster
    ;;
  differential)
    # The shared differential driver (engines/conformance/src/differential.ts), Go as reference.
    cd ../..
    npm run --silent differential -- --engines go,cpp --target native --sequences 400 --steps 200
    npm run --silent differential -- --engines go,cpp --reference-target native --target wasm-node \
      --sequences 200 --steps 200
    ;;
  tsan)
    if [ ! -f build/tsan/build.ninja ]; then
      mkdir -p build
      cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g -fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
        -DREPLICANT_TESTS=OFF >build/tsan.configure.log 2>&1 || { cat build/tsan.configure.log >&2; exit 1; }
    fi
    ninja -C build/tsan -j "${JOBS:-2}" --quiet replicant-server
    logs=$(mktemp -d)
    (cd ../.. && TSAN_OPTIONS="log_path=$logs/tsan" REPLICANT_SERVER_CPP="$PWD/engines/cpp-wasm/build/tsan/replicant-server" \
      REPLICANT_CLUSTER_ENGINES='cpp,cpp,cpp' npm --workspace @replicant/engines exec -- vitest run cluster)
    if ls "$logs"/tsan.* >/dev/null 2>&1; then cat "$logs"/tsan.* >&2; rm -rf "$logs"; exit 1; fi
    rm -rf "$logs"
    echo "tsan: no data races reported"
    ;;
  *)
    echo "usage: test.sh unit|asan|server|differential|tsan" >&2
    exit 2
    ;;
esac
