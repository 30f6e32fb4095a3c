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

# --- Debian packages: Chromium for the browser tests (Playwright drives /usr/bin/chromium), and
# openssh-server with openssh-sftp-server for the namespace hosts of bench/hosts (their sshd and
# its sftp subsystem, which Ansible's transfers use; no service is started)
apt_missing=()
for pkg in chromium openssh-server openssh-sftp-server; do
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

# --- bench: ansible-core from PyPI for `npm run bench -- --hosts inventory.yml`, in its own
# virtual environment (bench/ansible/.venv), installed only when the pin is not satisfied
ANSIBLE_PIN=2.17.14
if ! bench/ansible/.venv/bin/ansible-playbook --version 2>/dev/null | grep -q "core $ANSIBLE_PIN\]"; then
  say "pip install ansible-core==$ANSIBLE_PIN (bench/ansible/.venv)"
  python3 -m venv bench/ansible/.venv
  bench/ansible/.venv/bin/python -m pip install -q "ansible-core==$ANSIBLE_PIN"
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

# --- Rust engine (engines/rust-wasm): the wasm target and the wasm-bindgen CLI that matches the
# crate pinned in engines/rust-wasm/wasm/Cargo.toml. `--locked` fails against the registry here.
[ -d "$HOME/.cargo/bin" ] && case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac
have cargo && have rustup || die "Rust (rustup and cargo) is needed for engines/rust-wasm"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
RUST_WASM_BINDGEN_VERSION=0.2.130
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$RUST_WASM_BINDGEN_VERSION" ]; then
  # Only the `wasm-bindgen` binary, without default features: the build never uses the test
  # runner, whose HTTPS client (rustls, ring) is most of the compile. No registry publishes a
  # prebuilt 0.2.130 CLI (not on npm, PyPI or Debian), so it is compiled from crates.io.
  say "cargo install wasm-bindgen-cli $RUST_WASM_BINDGEN_VERSION --bin wasm-bindgen (takes several minutes)"
  cargo install wasm-bindgen-cli --version "$RUST_WASM_BINDGEN_VERSION" --no-default-features --bin wasm-bindgen
fi

# Java engine (engines/java-wasm): JDK 17 and Maven; the first build fills ~/.m2 from Maven
# Central (TeaVM 0.15.0, JUnit).
if ! have mvn || ! javac -version 2>&1 | grep -q '^javac 17\.'; then
  as_root apt-get install -y openjdk-17-jdk-headless maven
fi

# --- C++ engine (engines/cpp-wasm): GCC, CMake + Ninja, GoogleTest, Debian's Emscripten (wasm),
# clang-14 with its libFuzzer/sanitizer runtimes (fuzz.sh), python3 (server test).
cpp_packages=(g++ cmake ninja-build libgtest-dev emscripten binaryen clang-14 libclang-rt-14-dev python3)
cpp_missing=()
for p in "${cpp_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || cpp_missing+=("$p")
done
if [ ${#cpp_missing[@]} -gt 0 ]; then
  say "installing for the C++ engine: ${cpp_missing[*]}"
  as_root apt-get update
  as_root apt-get install -y "${cpp_missing[@]}"
fi
