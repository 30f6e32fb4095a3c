// The Java server as its launcher starts it trims its native heap (engines/java-wasm/build.sh):
// without that, glibc keeps most of what the JIT compilers malloc'd for a compilation and freed,
// so each C2 compilation after the memory run's 120 s warm-up left the Java node's RSS a few MiB
// higher, and the node read "not flat" (docs/reliability.md, "The Java node beside C++ and
// Rust"). Read from the node's own status line: what the running JVM says, not the script text.
import { describe, expect, it } from 'vitest';
import { waitUntil } from './client.ts';
import { NativeCluster } from './launcher.ts';
import { StatusReader } from './node-status.ts';

describe('the Java server launcher', () => {
  it('runs the JVM with its native heap trimmed once a second', async () => {
    // one node is enough: the option is the process's, not the cluster's
    const cluster = await NativeCluster.start({ engines: ['java'] });
    try {
      const reader = new StatusReader(cluster.logPath(0));
      // (a JVM on two loaded cores can take a while to log its first line)
      expect(await waitUntil(() => reader.stamped().length > 0, 60_000), 'a status line from the Java node').toBe(true);
      const status = reader.stamped()[0]!.status;
      expect(status.jvm_native_trim_interval_ms, JSON.stringify(status)).toBe(1000);
    } finally {
      await cluster.stop();
    }
  }, 90_000);
});
