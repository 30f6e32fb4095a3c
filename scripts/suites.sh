# The test suites `npm test` runs, one `suite NAME CMD...` line each. Sourced by test.sh.
# shellcheck shell=bash
suite go-unit bash -c 'cd engines/go-wasm && go test -count=1 ./...'
suite engines-unit npm --workspace @replicant/engines test
suite conformance-go-native npm run --silent conformance -- --engine go --target native --twice
suite conformance-go-wasm-node npm run --silent conformance -- --engine go --target wasm-node
suite conformance-go-wasm-browser npm run --silent conformance -- --engine go --target wasm-browser
suite differential-go npm run --silent differential -- --engines go,go --reference-target native --target wasm-node --sequences 200 --steps 200
suite web npm --workspace @replicant/web test
suite data npm --workspace @replicant/data test
suite cost-model npm --workspace @replicant/cost-model test

# C++ engine (engines/cpp-wasm)
suite "cpp: unit tests" bash engines/cpp-wasm/test.sh unit
suite "cpp: unit tests (ASan+UBSan)" bash engines/cpp-wasm/test.sh asan
suite "cpp: conformance native" npm run --silent conformance -- --engine cpp --target native
suite "cpp: conformance wasm-node" npm run --silent conformance -- --engine cpp --target wasm-node
suite "cpp: native server" bash engines/cpp-wasm/test.sh server
suite "cpp: native clusters (cpp; mixed with go)" env REPLICANT_CLUSTER_ENGINES='cpp,cpp,cpp;go,cpp,go;cpp,go,cpp' npm --workspace @replicant/engines exec -- vitest run cluster
suite "cpp: differential vs go (native, wasm-node)" bash engines/cpp-wasm/test.sh differential
