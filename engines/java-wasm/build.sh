#!/usr/bin/env bash
# Builds the Java engine into dist/: the conformance host and the TCP server (one jar plus
# launcher scripts), the TeaVM JavaScript build (what runs in Node) and the TeaVM WebAssembly
# GC build with its loader (what runs in browsers). Does nothing when dist/ is newer than every
# source; `build.sh --force` rebuilds anyway. Unit tests: `mvn -q -B test` (scripts/suites.sh).
set -euo pipefail
cd "$(dirname "$0")"

stamp=dist/.stamp
if [ "${1:-}" != --force ] && [ -f "$stamp" ] &&
  [ -z "$(find pom.xml build.sh src/main -newer "$stamp" -print -quit)" ]; then
  exit 0
fi

# -Pteavm adds the two TeaVM compilations to the ordinary jar build; tests run separately.
# Maven's output (even with -q, Debian's Maven prints colour resets) is shown only on failure.
if ! log=$(mvn -q -B -Pteavm package -DskipTests 2>&1); then
  printf '%s\n' "$log" >&2
  exit 1
fi

mkdir -p dist
cp target/replicant-java.jar dist/
cp target/teavm/replicant-java.js target/teavm/replicant-java.wasm \
  target/teavm/replicant-java.wasm-runtime.js dist/

# Launchers, so drivers can spawn the engine like the others' native binaries. JAVA and
# REPLICANT_JAVA_OPTS (e.g. -Xmx256m, as the paper sizes the heap) pass through; when
# REPLICANT_JAVA_OPTS is unset, $4 holds the launcher's own default JVM options.
launcher() {
  cat >"dist/$1" <<SCRIPT
#!/bin/sh
here=\$(dirname "\$(readlink -f "\$0")")
exec "\${JAVA:-java}" \${REPLICANT_JAVA_OPTS-${4-}} $3 -cp "\$here/replicant-java.jar" $2 "\$@"
SCRIPT
  chmod +x "dist/$1"
}
# The host is short-lived and single-threaded: a small serial-GC JVM starts fastest.
launcher replicant-host replicant.host.Main '-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto'
# The server keeps the JVM's G1 (as in the paper). Without REPLICANT_JAVA_OPTS its heap is fixed
# at 256 MiB and touched at start, so resident memory does not grow when a stalled cluster makes
# garbage fast (left alone, G1 grows the heap towards a quarter of the machine's memory);
# docs/protocol.md, "Native servers", "Limits". Benchmarks size the heap themselves.
# TrimNativeHeapInterval (a product option since JDK 17.0.9) has the JVM hand the memory its
# JIT compilers malloc'd for one compilation and freed back to the kernel once a second; without
# it glibc keeps much of it, and RSS stays a few MiB higher after each late C2 compilation, which
# reads as growth in a 180 s run (docs/reliability.md, "The Java node beside C++ and Rust").
launcher replicant-server replicant.server.Main '' '-Xms256m -Xmx256m -XX:+AlwaysPreTouch -XX:TrimNativeHeapInterval=1000'
touch "$stamp"
