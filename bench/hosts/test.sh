#!/usr/bin/env bash
# The multi-host benchmark without a cloud: four network namespaces with sshd (netns.sh), the
# full Ansible path of `npm run bench -- --hosts` against them in a smoke setting, and a check
# that every namespace, link, group and process is gone afterwards — also on failure or Ctrl-C.
#   bash bench/hosts/test.sh [OUT_DIR] [bench flags…]   (default: a smoke setting, Go)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DIR=$(mktemp -d /tmp/replicant-hosts-XXXXXX)
OUT=${1:-$DIR/out}
shift || true
# One-way delay of the model card's network (sim's default card: 0.25 ms) — applied if the kernel has netem.
DELAY_MS=${REPLICANT_HOSTS_DELAY_MS:-0.25}

cleanup() {
  local code=$?
  trap - EXIT INT TERM
  tag=$(cat "$DIR/tag" 2>/dev/null || true)
  for sock in "$DIR"/cp/*; do
    [ -S "$sock" ] && ssh -o ControlPath="$sock" -O exit replicant-test-host 2>/dev/null || true
  done
  bash "$here/netns.sh" down "$DIR" || true
  # Nothing of this run may remain: namespaces, the controller's link, resource groups.
  if [ -n "$tag" ]; then
    left=$( { ip netns list | grep "^$tag-" || true; ip -br link | grep "^${tag}c" || true; ls -d /sys/fs/cgroup/*/replicant-hosts-"$tag"-* 2>/dev/null || true; } )
    if [ -n "$left" ]; then
      echo "bench-hosts: left behind after clean-up:"$'\n'"$left" >&2
      code=1
    fi
  fi
  rm -rf "$DIR"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bash "$here/netns.sh" up "$DIR" "$DELAY_MS"
# Ansible's SSH connection sharing keeps master processes for a minute: keep their sockets here
# so clean-up can end exactly those.
export ANSIBLE_SSH_CONTROL_PATH_DIR="$DIR/cp"
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(--engine go --preset smoke --records 2000 --duration-s 4 --warmup-s 2 --max-probes 2 --repetitions 1 --slo-ms 100 --tolerance 0.5 --mem-gib 0.5)
cd "$root"
npm run --silent bench -- --hosts "$DIR/inventory.yml" "${flags[@]}" --out "$OUT"

# The results came back like a local run's: schema-valid file, histograms, node logs.
node -e '
const f = JSON.parse(require("fs").readFileSync(process.argv[1] + "/results.json", "utf8"));
const status = f.rows.filter((r) => r.metric === "measurement_status");
const max = f.rows.filter((r) => r.metric === "max_throughput_slo");
if (!status.length || !max.length) { console.error("bench-hosts: no status or max_throughput_slo row"); process.exit(1); }
for (const r of max) console.log(`bench-hosts: ${r.id} = ${r.qualifier === "upper_bound" ? "< " : ""}${r.value} ${r.unit}`);
' "$OUT"
ls "$OUT"/hdr/*/Intended-*.hdr >/dev/null
# Transfers went over the hosts' sftp subsystem (netns.sh), not the fallback that pipes them.
if grep -l 'sftp transfer mechanism failed' "$OUT"/hosts/*/*.log 2>/dev/null; then
  echo "bench-hosts: Ansible fell back from SFTP (the logs above): the hosts' sshd has no sftp subsystem" >&2
  exit 1
fi
# Nothing but results, details, histograms and the hosts' logs: no playbook variable files.
if find "$OUT" -name '*.json' ! -name results.json | grep .; then
  echo "bench-hosts: stray JSON files in $OUT (above): data/validate.mjs would read them as results" >&2
  exit 1
fi
ls "$OUT"/hosts/*/nodes/s0/node.log >/dev/null
echo "bench-hosts: results, histograms and node logs collected in $OUT"
