#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently: Debian packages, Rust targets and
# tools, npm and pip packages. Safe to run again and again; fast when everything is there.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# Java engine (engines/java-wasm): JDK 17 and Maven; the first build fills ~/.m2 from Maven
# Central (TeaVM 0.15.0, JUnit). Chromium runs the WasmGC build's smoke test.
if ! have mvn || ! javac -version 2>&1 | grep -q '^javac 17\.'; then
  as_root apt-get install -y openjdk-17-jdk-headless maven
fi
have chromium || as_root apt-get install -y chromium
