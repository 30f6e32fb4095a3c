#!/usr/bin/env bash
# Four "hosts" on this machine for testing the multi-host benchmark without a cloud: network
# namespaces s0 s1 s2 (servers) and c0 (client), each with one veth into a switch namespace that
# holds a bridge, an sshd listening on the host's address, and an Ansible inventory for them.
# The controller (this shell's namespace) reaches the switch through one more veth pair, for SSH.
#
#   bench/hosts/netns.sh up DIR [DELAY_MS]   creates everything, writes DIR/inventory.yml
#   bench/hosts/netns.sh down DIR            removes every namespace, link and process it made
#
# Everything it creates is named after DIR's tag (DIR/tag), so `down` removes exactly that, also
# after a crash. Needs root (ip netns, veth, sshd). The delay is applied with tc netem on each
# host's link when the kernel has netem; when it does not, DIR/netem says so and links have none.
set -euo pipefail

SUBNET=10.213.77
HOSTS=(s0 s1 s2 c0)
declare -A ADDR=([s0]=1 [s1]=2 [s2]=3 [c0]=10)
CONTROLLER_ADDR=254
# Debian's openssh-sftp-server
SFTP_SERVER=/usr/lib/openssh/sftp-server

usage() { echo "usage: $0 up DIR [DELAY_MS] | down DIR" >&2; exit 2; }

ns() { echo "$(cat "$DIR/tag")-$1"; }

up() {
  local delay_ms=${1:-0}
  [ "$(id -u)" = 0 ] || { echo "netns.sh: needs root (ip netns, veth, sshd)" >&2; exit 1; }
  [ -x /usr/sbin/sshd ] || { echo "netns.sh: /usr/sbin/sshd missing (scripts/setup.sh installs openssh-server)" >&2; exit 1; }
  # Ansible copies and fetches files over SFTP; without the subsystem every transfer fails
  # first and falls back to piping through the shell (a warning per host and step).
  [ -x "$SFTP_SERVER" ] || { echo "netns.sh: $SFTP_SERVER missing (scripts/setup.sh installs openssh-sftp-server)" >&2; exit 1; }
  mkdir -p "$DIR"
  # A short tag keeps interface names under 15 characters and tells this run's objects apart.
  echo "rb$$" > "$DIR/tag"
  local tag; tag=$(cat "$DIR/tag")
  ip netns add "$(ns sw)"
  ip -n "$(ns sw)" link add br0 type bridge
  ip -n "$(ns sw)" link set br0 up
  # The controller's link into the switch (SSH from Ansible only).
  ip link add "${tag}c" type veth peer name ctl netns "$(ns sw)"
  ip -n "$(ns sw)" link set ctl master br0 up
  ip addr add "$SUBNET.$CONTROLLER_ADDR/24" dev "${tag}c"
  ip link set "${tag}c" up
  : > "$DIR/netem"
  for h in "${HOSTS[@]}"; do
    ip netns add "$(ns "$h")"
    ip -n "$(ns "$h")" link set lo up
    ip -n "$(ns sw)" link add "p-$h" type veth peer name eth0 netns "$(ns "$h")"
    ip -n "$(ns sw)" link set "p-$h" master br0 up
    ip -n "$(ns "$h")" addr add "$SUBNET.${ADDR[$h]}/24" dev eth0
    ip -n "$(ns "$h")" link set eth0 up
    if [ "$delay_ms" != 0 ]; then
      if ! ip netns exec "$(ns "$h")" tc qdisc add dev eth0 root netem delay "${delay_ms}ms" 2>>"$DIR/netem.err"; then
        echo "no netem in this kernel ($(uname -r)): links without the ${delay_ms} ms delay" > "$DIR/netem"
      fi
    fi
  done
  [ -s "$DIR/netem" ] || echo "netem delay ${delay_ms} ms one way on each host's link" > "$DIR/netem"

  # SSH: one key for the controller, one host key and sshd per namespace.
  ssh-keygen -q -t ed25519 -N '' -C replicant-bench-controller -f "$DIR/id_ed25519"
  cp "$DIR/id_ed25519.pub" "$DIR/authorized_keys"
  [ -d /run/sshd ] || { mkdir -p /run/sshd; touch "$DIR/made-run-sshd"; }
  for h in "${HOSTS[@]}"; do
    local d="$DIR/sshd-$h"
    mkdir -p "$d" "$DIR/host-$h"
    ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
    cat > "$d/sshd_config" <<EOF
ListenAddress $SUBNET.${ADDR[$h]}
Port 22
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 64
Subsystem sftp $SFTP_SERVER
EOF
    # nsenter --net, not `ip netns exec`: the latter also makes a mount namespace with its own
    # /sys, without the cgroup hierarchies the nodes' limits need.
    nsenter --net="/run/netns/$(ns "$h")" /usr/sbin/sshd -f "$d/sshd_config" -E "$d/sshd.log"
  done

  cat > "$DIR/inventory.yml" <<EOF
# Four hosts in network namespaces made by bench/hosts/netns.sh ($(cat "$DIR/netem")).
all:
  vars:
    ansible_user: root
    ansible_ssh_private_key_file: $DIR/id_ed25519
    ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR
    ansible_python_interpreter: /usr/bin/python3
    replicant_group_prefix: replicant-hosts-$tag
  children:
    servers:
      hosts:
$(for h in s0 s1 s2; do printf '        %s: { ansible_host: %s, replicant_dir: %s }\n' "$h" "$SUBNET.${ADDR[$h]}" "$DIR/host-$h"; done)
    client:
      hosts:
        c0: { ansible_host: $SUBNET.${ADDR[c0]}, replicant_dir: $DIR/host-c0 }
EOF
  # Wait until every sshd answers (state, not a fixed delay).
  for h in "${HOSTS[@]}"; do
    for _ in $(seq 1 100); do
      ssh -i "$DIR/id_ed25519" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes -o ConnectTimeout=2 \
        "root@$SUBNET.${ADDR[$h]}" true 2>/dev/null && continue 2
      sleep 0.2
    done
    echo "netns.sh: sshd in $(ns "$h") does not answer (log: $DIR/sshd-$h/sshd.log)" >&2
    exit 1
  done
  echo "hosts up: ${HOSTS[*]} on $SUBNET.0/24 ($(cat "$DIR/netem")); inventory $DIR/inventory.yml"
}

down() {
  [ -f "$DIR/tag" ] || return 0
  local tag; tag=$(cat "$DIR/tag")
  for h in "${HOSTS[@]}" sw; do
    local n; n=$(ns "$h")
    ip netns list 2>/dev/null | grep -q "^$n\b" || continue
    # Every process inside the namespace was started by this test (sshd and what Ansible ran).
    local pids; pids=$(ip netns pids "$n" 2>/dev/null || true)
    [ -n "$pids" ] && kill $pids 2>/dev/null || true
    for _ in $(seq 1 50); do
      [ -z "$(ip netns pids "$n" 2>/dev/null)" ] && break
      sleep 0.1
    done
    pids=$(ip netns pids "$n" 2>/dev/null || true)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
    ip netns del "$n" 2>/dev/null || true
  done
  ip link del "${tag}c" 2>/dev/null || true
  # Resource groups the nodes ran in (their processes are gone with the namespaces).
  for g in /sys/fs/cgroup/*/replicant-hosts-"$tag"-* /sys/fs/cgroup/replicant-hosts-"$tag"-*; do
    [ -d "$g" ] && rmdir "$g" 2>/dev/null || true
  done
  [ -f "$DIR/made-run-sshd" ] && rmdir /run/sshd 2>/dev/null || true
  rm -f "$DIR/tag"
  echo "hosts down: namespaces, links and processes of $tag removed"
}

[ $# -ge 2 ] || usage
CMD=$1
DIR=$(realpath -m "$2")
case "$CMD" in
  up) up "${3:-0}" ;;
  down) down ;;
  *) usage ;;
esac
