#!/usr/bin/env bash
# Builds what the native benchmarks need: the YCSB bindings (bench/ycsb, Maven; tests run in
# the bench-ycsb suite) and etcd 3.7.3 from the Go module proxy (bench/etcd). Incremental: each
# part is rebuilt only when its inputs are newer than its output.
set -euo pipefail
cd "$(dirname "$0")"

newer_than() { # newer_than OUTPUT INPUT... : true when OUTPUT is missing or older than an input
  local out=$1; shift
  [ ! -e "$out" ] && return 0
  [ -n "$(find "$@" -newer "$out" -print -quit 2>/dev/null)" ]
}

if newer_than ycsb/target/replicant-ycsb.jar ycsb/pom.xml ycsb/src/main; then
  mvn -q -B -f ycsb/pom.xml package -DskipTests
fi

if newer_than etcd/dist/etcd etcd/go.mod etcd/go.sum etcd/main.go; then
  (cd etcd && go build -trimpath -o dist/etcd .)
fi
