#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently: Debian packages, Rust targets and
# tools, npm and pip packages. Safe to run again and again; fast when everything is there.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

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
