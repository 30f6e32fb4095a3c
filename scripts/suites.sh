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
suite rust-unit bash -c 'cd engines/rust-wasm && cargo test --release --locked --workspace'
suite conformance-rust-native npm run --silent conformance -- --engine rust --target native --twice
suite conformance-rust-wasm-node npm run --silent conformance -- --engine rust --target wasm-node
suite conformance-rust-wasm-browser npm run --silent conformance -- --engine rust --target wasm-browser
suite differential-rust-native npm run --silent differential -- --engines go,rust --reference-target native --target native --sequences 200
suite differential-rust-wasm-node npm run --silent differential -- --engines go,rust --reference-target native --target wasm-node --sequences 200 --steps 200
suite cluster-rust bash -c 'cd engines && REPLICANT_CLUSTER_ENGINES="rust,rust,rust;rust,go,rust;rust,java,go" npx vitest run cluster/'
suite java-unit mvn -q -B -f engines/java-wasm/pom.xml test
suite conformance-java-native npm run --silent conformance -- --engine java --target native --twice
suite conformance-java-wasm-node npm run --silent conformance -- --engine java --target wasm-node
suite conformance-java-wasm-browser npm run --silent conformance -- --engine java --target wasm-browser
suite differential-java-native npm run --silent differential -- --engines go,java --reference-target native --target native --sequences 200
suite differential-java-wasm-node npm run --silent differential -- --engines go,java --reference-target native --target wasm-node --sequences 100
suite cluster-mixed bash -c 'cd engines && REPLICANT_CLUSTER_ENGINES="java,java,java;go,java,go" npx vitest run cluster'
suite sim-unit npm --workspace @replicant/sim test

# C++ engine (engines/cpp-wasm)
suite cpp-unit bash engines/cpp-wasm/test.sh unit
suite cpp-unit-asan bash engines/cpp-wasm/test.sh asan
suite conformance-cpp-native npm run --silent conformance -- --engine cpp --target native --twice
suite conformance-cpp-wasm-node npm run --silent conformance -- --engine cpp --target wasm-node
suite conformance-cpp-wasm-browser npm run --silent conformance -- --engine cpp --target wasm-browser
suite cpp-server bash engines/cpp-wasm/test.sh server
suite cluster-cpp-mixed env REPLICANT_CLUSTER_ENGINES='cpp,cpp,cpp;go,cpp,go;cpp,go,cpp;cpp,java,go' npm --workspace @replicant/engines exec -- vitest run cluster
suite differential-cpp bash engines/cpp-wasm/test.sh differential
