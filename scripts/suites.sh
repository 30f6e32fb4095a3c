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
suite java-unit mvn -q -B -f engines/java-wasm/pom.xml test
suite conformance-java-native npm run --silent conformance -- --engine java --target native --twice
suite conformance-java-wasm-node npm run --silent conformance -- --engine java --target wasm-node
suite conformance-java-wasm-browser npm run --silent conformance -- --engine java --target wasm-browser
suite differential-java-native npm run --silent differential -- --engines go,java --reference-target native --target native --sequences 200
suite differential-java-wasm-node npm run --silent differential -- --engines go,java --reference-target native --target wasm-node --sequences 100
suite cluster-mixed bash -c 'cd engines && REPLICANT_CLUSTER_ENGINES="java,java,java;go,java,go" npx vitest run cluster'
suite sim-unit npm --workspace @replicant/sim test
