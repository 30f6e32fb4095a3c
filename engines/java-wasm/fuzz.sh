#!/usr/bin/env bash
# Fuzzes the Java engine's untrusted-input parsers with Jazzer (libFuzzer for the JVM; its
# driver comes from Maven Central inside the com.code-intelligence:jazzer jar):
#   client-line  replicant.fuzz.ClientLineFuzzer: the client-line parser
#   peer-frame   replicant.fuzz.PeerFrameFuzzer: the peer-frame decoder and a node stepping it
#   wal-records  replicant.server.WalFuzzer: the server's write-ahead log reader, the record
#                decoder and a restart
# Usage: engines/java-wasm/fuzz.sh [--inputs N | --seconds S] [--target NAME] [--logs DIR]
#   (default --seconds 60; `npm run fuzz -- --engine java --inputs N` calls this and reads the
#   logs, DIR/<target>.log, into figures)
# Seeds live in fuzz/corpus/<target>/ (new corpus entries go to target/fuzz/corpus/); a crash
# is written to target/fuzz/ as crash-* and must become a regression test in src/test/ (and
# its input a file in fuzz/corpus/<target>/).
set -euo pipefail
cd "$(dirname "$0")"
source ../fuzz-args.sh
parse_fuzz_args target/fuzz/logs "$@"
case $logs in /*) ;; *) logs=$PWD/$logs ;; esac
jazzer_version=0.24.0

[ -f dist/replicant-java.jar ] || ./build.sh
mkdir -p target/fuzz "$logs"
for a in jazzer jazzer-api; do
  if [ ! -f "target/fuzz/$a.jar" ]; then
    mvn -q -B dependency:copy -Dartifact="com.code-intelligence:$a:$jazzer_version" \
      -DoutputDirectory=target/fuzz -Dmdep.stripVersion=true >/dev/null
  fi
done

status=0
run() { # TARGET_CLASS CORPUS_NAME
  [ -z "$only" ] || [ "$only" = "$2" ] || return 0
  local work="target/fuzz/corpus/$2"
  mkdir -p "$work" "fuzz/corpus/$2"
  echo "== $2: $1 (${budget[*]})" >&2
  # -timeout: a hang, not a slow start. On the shared two-core machine (load 60) the JVM spent
  # over 10 s loading and instrumenting classes on the first, empty input (G1: 19 s in young
  # collections), which Jazzer's old 10 s limit reported as a timeout crash. FUZZ_TIMEOUT_S.
  if ! (cd target/fuzz && java -Xmx512m -cp "jazzer.jar:jazzer-api.jar:../../dist/replicant-java.jar" \
      com.code_intelligence.jazzer.Jazzer --target_class="$1" --instrumentation_includes='replicant.**' \
      "${budget[@]}" -max_len=4096 -timeout="${FUZZ_TIMEOUT_S:-60}" -rss_limit_mb=4096 -print_final_stats=1 \
      "corpus/$2" "../../fuzz/corpus/$2") >"$logs/$2.log" 2>&1; then
    status=1
    tail -40 "$logs/$2.log" >&2
    echo "$2: FAILED; the input is in target/fuzz/ (crash-*)" >&2
  fi
}
run replicant.fuzz.ClientLineFuzzer client-line
run replicant.fuzz.PeerFrameFuzzer peer-frame
run replicant.server.WalFuzzer wal-records
exit $status
