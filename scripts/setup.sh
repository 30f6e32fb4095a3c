#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently: Debian packages, Rust targets and
# tools, npm and pip packages. Safe to run again and again; fast when everything is there.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
