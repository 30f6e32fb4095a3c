#!/usr/bin/env bash
# Prints what any run of bench/hosts/test.sh could leave behind, counted: namespaces rb*-*,
# links rb*c, cgroups replicant-hosts-*, processes and scratch folders under /tmp/replicant-hosts-*.
# (test.sh itself fails on its own tag's leftovers; this looks for anyone's.)
echo "--- left behind: namespaces [$(ip netns list | grep -c '^rb[0-9]*-' || true)]" \
  "links [$(ip -br link | grep -c '^rb[0-9]*c' || true)]" \
  "groups [$(ls -d /sys/fs/cgroup/*/replicant-hosts-* /sys/fs/cgroup/replicant-hosts-* 2>/dev/null | wc -l)]" \
  "processes [$(pgrep -fc '/tmp/replicant-hosts-' || true)]" \
  "scratch dirs [$(ls -d /tmp/replicant-hosts-* 2>/dev/null | wc -l)]"
