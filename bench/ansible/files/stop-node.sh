#!/bin/sh
# Stops the node start-node.sh started in DIR (SIGTERM, then SIGKILL) and removes its group.
set -u
dir=$1
cd "$dir" || exit 0
if [ -f node.pid ]; then
  pid=$(cat node.pid)
  # A node already gone before it was asked to stop had exited (a crash, an OOM kill): the
  # controller judges the setting by it (bench/src/results.ts, settingStatus).
  if kill -0 "$pid" 2>/dev/null; then echo 0 > node_exited; else echo 1 > node_exited; fi
  kill "$pid" 2>/dev/null
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill -9 "$pid" 2>/dev/null
  rm -f node.pid
fi
if [ -f node.group ]; then
  read -r kind group < node.group
  case $kind in
    v1)
      # OOM kills are read before the group goes (for the result).
      sed -n 's/^oom_kill //p' "/sys/fs/cgroup/memory/$group/memory.oom_control" 2>/dev/null > oom_kills || true
      cat "/sys/fs/cgroup/memory/$group/memory.max_usage_in_bytes" > memory_peak_bytes 2>/dev/null || true
      for c in memory cpu cpuacct; do rmdir "/sys/fs/cgroup/$c/$group" 2>/dev/null; done ;;
    v2)
      sed -n 's/^oom_kill //p' "/sys/fs/cgroup/$group/memory.events" 2>/dev/null > oom_kills || true
      cat "/sys/fs/cgroup/$group/memory.peak" > memory_peak_bytes 2>/dev/null || true
      rmdir "/sys/fs/cgroup/$group" 2>/dev/null ;;
    systemd) systemctl stop "$group.scope" 2>/dev/null ;;
  esac
  rm -f node.group
fi
exit 0
