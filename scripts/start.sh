#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and serves the lab on localhost.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/serve.mjs web/dist "${PORT:-4173}"
