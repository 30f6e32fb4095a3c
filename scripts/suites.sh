# The test suites `npm test` runs, one `suite NAME CMD...` line each. Sourced by test.sh.
# shellcheck shell=bash
