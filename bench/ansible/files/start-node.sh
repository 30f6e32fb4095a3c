#!/bin/sh
# Starts one Replicant node on this host inside its own resource group, in the background.
#   start-node.sh DIR ID SERVER LIMIT_BYTES CPU_QUOTA_CORES GROUP [NAME=VALUE…]
# LIMIT_BYTES 0: no memory limit; CPU_QUOTA_CORES 0: no quota. The group is a cgroup v1
# hierarchy under /sys/fs/cgroup/{memory,cpu,cpuacct} when there is one, else cgroup v2, else a
# systemd-run scope; its name goes to DIR/node.group for stop-node.sh.
set -eu
dir=$1 id=$2 server=$3 limit=$4 quota=$5 group=$6
shift 6
cd "$dir"
enter=""
prefix=""
if [ -d /sys/fs/cgroup/memory ] && [ -d /sys/fs/cgroup/cpu ]; then
  for c in memory cpu cpuacct; do mkdir -p "/sys/fs/cgroup/$c/$group"; done
  [ "$limit" != 0 ] && echo "$limit" > "/sys/fs/cgroup/memory/$group/memory.limit_in_bytes"
  if [ "$quota" != 0 ]; then
    echo 10000 > "/sys/fs/cgroup/cpu/$group/cpu.cfs_period_us"
    awk -v q="$quota" 'BEGIN { printf "%d\n", q * 10000 }' > "/sys/fs/cgroup/cpu/$group/cpu.cfs_quota_us"
  fi
  enter="for c in memory cpu cpuacct; do echo \$\$ > /sys/fs/cgroup/\$c/$group/cgroup.procs; done;"
  echo "v1 $group" > node.group
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  mkdir -p "/sys/fs/cgroup/$group"
  [ "$limit" != 0 ] && echo "$limit" > "/sys/fs/cgroup/$group/memory.max"
  [ "$quota" != 0 ] && awk -v q="$quota" 'BEGIN { printf "%d 10000\n", q * 10000 }' > "/sys/fs/cgroup/$group/cpu.max"
  enter="echo \$\$ > /sys/fs/cgroup/$group/cgroup.procs;"
  echo "v2 $group" > node.group
elif command -v systemd-run >/dev/null && [ -d /run/systemd/system ]; then
  props=""
  [ "$limit" != 0 ] && props="$props -p MemoryMax=$limit"
  [ "$quota" != 0 ] && props="$props -p CPUQuota=$(awk -v q="$quota" 'BEGIN { printf "%d%%", q * 100 }')"
  prefix="systemd-run --scope --quiet --unit=$group $props"
  echo "systemd $group" > node.group
else
  echo "start-node.sh: no cgroup hierarchy and no systemd-run: cannot apply limits" >&2
  exit 1
fi
# The node's environment (GOMEMLIMIT, GODEBUG, REPLICANT_JAVA_OPTS…) comes as NAME=VALUE words.
setsid sh -c "$enter exec $prefix env \"\$@\" $server --config cluster.json --id $id" node "$@" > node.log 2>&1 < /dev/null &
echo $! > node.pid
