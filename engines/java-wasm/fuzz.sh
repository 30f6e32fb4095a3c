#!/usr/bin/env bash
# Fuzzes the Java engine's client-line parser and peer-frame decoder with Jazzer (libFuzzer for
# the JVM; its driver comes from Maven Central inside the com.code-intelligence:jazzer jar).
# A bench command, not part of CI:
#   engines/java-wasm/fuzz.sh [SECONDS_PER_TARGET]     (default 60)
# Seeds live in fuzz/corpus/<target>/ (new corpus entries go to target/fuzz/corpus/); a crash
# is written to target/fuzz/ as crash-* and must become a regression test in src/test/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
jazzer_version=0.24.0

./build.sh
mkdir -p target/fuzz
for a in jazzer jazzer-api; do
  if [ ! -f "target/fuzz/$a.jar" ]; then
    mvn -q -B dependency:copy -Dartifact="com.code-intelligence:$a:$jazzer_version" \
      -DoutputDirectory=target/fuzz -Dmdep.stripVersion=true >/dev/null
  fi
done

run() { # TARGET_CLASS CORPUS_NAME
  local work="target/fuzz/corpus/$2"
  mkdir -p "$work"
  echo "== fuzzing $1 for ${seconds}s"
  (cd target/fuzz && java -Xmx512m -cp "jazzer.jar:jazzer-api.jar:../../dist/replicant-java.jar" \
    com.code_intelligence.jazzer.Jazzer --target_class="$1" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
    "corpus/$2" "../../fuzz/corpus/$2")
}
run replicant.fuzz.ClientLineFuzzer client-line
run replicant.fuzz.PeerFrameFuzzer peer-frame
