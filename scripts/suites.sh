# The test suites `npm test` runs, one `suite NAME CMD...` line each. Sourced by test.sh.
# shellcheck shell=bash
suite data npm --workspace @replicant/data test
suite cost-model npm --workspace @replicant/cost-model test
suite rust-unit bash -c 'cd engines/rust-wasm && cargo test --release --locked --workspace'
suite rust-conformance-native npm run conformance -- --engine rust --target native
suite rust-conformance-wasm-node npm run conformance -- --engine rust --target wasm-node
suite rust-server npx tsx engines/rust-wasm/server-test.ts
suite rust-difftest bash -c 'bash engines/go-wasm/build.sh && npx tsx engines/rust-wasm/difftest.ts --runs 12 --steps 2500'
