# The test suites `npm test` runs, one `suite NAME CMD...` line each, in dependency order.
# Sourced by scripts/test.sh (which has already run set-up and the build).
# shellcheck shell=bash
ALL=go,cpp,rust,java

# --- each engine's own unit tests, beside its code
suite go-unit bash -c 'cd engines/go-wasm && go test -count=1 ./...'
suite cpp-unit bash engines/cpp-wasm/test.sh unit
suite cpp-unit-asan bash engines/cpp-wasm/test.sh asan
suite rust-unit bash -c 'cd engines/rust-wasm && cargo test --release --locked --workspace --quiet'
suite java-unit mvn -q -B -f engines/java-wasm/pom.xml test

# --- one design: every transcript on every engine and target, byte-identical
suite conformance-native npm run --silent conformance -- --engine all --target native --twice
suite conformance-wasm-node npm run --silent conformance -- --engine all --target wasm-node
suite conformance-wasm-browser npm run --silent conformance -- --engine all --target wasm-browser
suite differential-native npm run --silent differential -- --engines $ALL --reference-target native --target native --sequences 300 --steps 200
suite differential-wasm-node npm run --silent differential -- --engines $ALL --reference-target native --target wasm-node --sequences 100 --steps 200
suite differential-wasm-browser npm run --silent differential -- --engines $ALL --reference-target native --target wasm-browser --sequences 50 --steps 200

# --- the seam's own tests, and native clusters (alone and mixed)
suite engines-unit npm --workspace @replicant/engines test
# (only the cluster files that read the mix: the others ran once in engines-unit just above)
suite cluster-mixed env REPLICANT_CLUSTER_ENGINES='cpp,cpp,cpp;rust,rust,rust;java,java,java;go,cpp,rust;cpp,rust,java;rust,java,go' bash -c 'npm --workspace @replicant/engines exec -- vitest run $(cd engines && grep -l REPLICANT_CLUSTER_ENGINES cluster/*.test.ts)'

# --- linearizability: the Porcupine checker (Go package, CLI, wasm) and its self-test
suite checker npm --workspace @replicant/checker test
# seeded fault schedules on the real engines (wasm) in virtual time: 300 seeds for each engine and
# for the mixed clusters ('all'; issue 14: "a few hundred seeds per engine")
# each engine's fuzz targets (client line, peer frame, WAL records) for a few thousand inputs:
# a smoke that the fuzzers build and run; the million-input runs are `npm run fuzz -- --inputs N`
suite fuzz-smoke npm run --silent fuzz -- --engine all --inputs 2000
# (then 60 seeds each on rust and cpp with crashes as real restarts from the cores' write-ahead records)
suite torture bash -c 'npm run --silent torture -- --engine rust,cpp --seeds 300 --known data/reliability/known-stalls.json && npm run --silent torture -- --engine go,java,all --seeds 300 --known data/reliability/known-stalls.json && npm run --silent torture -- --engine rust,cpp --seeds 60 --durability log && npm run --silent torture -- --engine rust,cpp,go,java --seeds 10 --durability log --repair 256 --election 256 --checkpoints'

# --- simulator, web lab, data and cost model
suite sim-unit npm --workspace @replicant/sim test
suite sim-chromium npm --workspace @replicant/sim run test:chromium
suite lessons npm --workspace @replicant/lessons test
suite web npm --workspace @replicant/web test
suite data npm --workspace @replicant/data test
suite scripts node --test scripts/test/
suite cost-model npm --workspace @replicant/cost-model test
suite bench-unit npm --workspace @replicant/bench test
suite bench-ycsb mvn -q -B -f bench/ycsb/pom.xml test
suite bench-memory env REPLICANT_BENCH_ENGINES=go,rust,java,cpp npm --workspace @replicant/bench run test:memory
suite bench-hosts bash bench/hosts/test.sh
