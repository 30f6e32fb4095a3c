# Shared helpers for the set-up, build and test scripts. Sourced, never run.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT

# npm hands every setting of ~/.npmrc down to the scripts it runs as npm_config_* variables.
# Debian's npmrc sets `nodedir` (for node-gyp); nested npm calls then warn
# 'Unknown env config "nodedir"' on every call. Nothing here builds a native addon, so drop it.
unset npm_config_nodedir NPM_CONFIG_NODEDIR

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf '\033[33mwarning: %s\033[0m\n' "$*" >&2; }
die() { printf '\033[31merror: %s\033[0m\n' "$*" >&2; exit 1; }

have() { command -v "$1" >/dev/null 2>&1; }

# as_root CMD...: run as root (directly, or through sudo when available).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo "$@"; else die "need root for: $*"; fi
}
