#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently: Debian packages, Rust targets and
# tools, npm and pip packages. Safe to run again and again; fast when everything is there.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# --- toolchains this machine kind provides (never downloaded from elsewhere)
for tool in go node npm python3; do
  have "$tool" || die "$tool is required (it comes with the machine image); see README.md"
done

# --- Debian packages: Chromium for the browser tests (Playwright drives /usr/bin/chromium)
apt_missing=()
for pkg in chromium; do
  dpkg -s "$pkg" >/dev/null 2>&1 || apt_missing+=("$pkg")
done
if [ ${#apt_missing[@]} -gt 0 ]; then
  say "apt-get install ${apt_missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}"
fi

# --- npm workspaces (data, cost-model): install when node_modules is missing or older than the lock
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  say "npm install"
  npm install --no-audit --no-fund
  touch node_modules
fi

# --- cost-model: Python test tools (pinned), installed only when a pin is not satisfied
if ! python3 - cost-model/requirements-dev.txt <<'PY' 2>/dev/null
import sys
from importlib.metadata import version  # raises when the package is missing
for line in open(sys.argv[1]):
    name, _, pin = line.strip().partition("==")
    if name and version(name) != pin:
        sys.exit(1)
PY
then
  say "pip install -r cost-model/requirements-dev.txt"
  python3 -m pip install -q -r cost-model/requirements-dev.txt
fi

# Java engine (engines/java-wasm): JDK 17 and Maven; the first build fills ~/.m2 from Maven
# Central (TeaVM 0.15.0, JUnit).
if ! have mvn || ! javac -version 2>&1 | grep -q '^javac 17\.'; then
  as_root apt-get install -y openjdk-17-jdk-headless maven
fi
