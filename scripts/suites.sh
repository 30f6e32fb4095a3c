# The test suites `npm test` runs, one `suite NAME CMD...` line each. Sourced by test.sh.
# shellcheck shell=bash
suite data npm --workspace @replicant/data test
suite cost-model npm --workspace @replicant/cost-model test
