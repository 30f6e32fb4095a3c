// The Java server as its launcher starts it trims its native heap (engines/java-wasm/build.sh):
// without that, glibc keeps most of what the JIT compilers malloc'd for a compilation and freed,
// so each C2 compilation after the memory run's 120 s warm-up left the Java node's RSS a few MiB
// higher, and the node read "not flat" (docs/reliability.md, "The Java node beside C++ and
// Rust"). Read from the nodes' own status lines: what the running JVM says, not the script text.
//
// REPLICANT_JAVA_OPTS replaces the launcher's options rather than adding to them: the benchmarks
// size the heap themselves, often below the launcher's fixed 256 MiB, and `-Xms256m ... -Xmx128m`
// is a JVM that refuses to start (docs/reliability.md, "Issue 20: done when, item by item").
// One cluster of two nodes holds both cases, so the suite pays for one JVM start-up, not two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from './client.ts';
import { NativeCluster } from './launcher.ts';
import { StatusReader, type NodeStatus } from './node-status.ts';

const MiB = 1 << 20;
/** A heap below the launcher's 256 MiB, as a benchmark's memory plan sets it (bench/src/systems.ts). */
const BENCH_FORM_OPTS = '-Xmx128m';
const LAUNCHER_NODE = 0;
const BENCH_FORM_NODE = 1;

describe('the Java server launcher', () => {
  let cluster: NativeCluster;
  const firstStatus: (NodeStatus | undefined)[] = [];

  beforeAll(async () => {
    cluster = await NativeCluster.start({
      engines: ['java', 'java'],
      // (node 0 inherits the runner's environment, where REPLICANT_JAVA_OPTS is unset: set but
      // empty would also replace the launcher's options, with nothing)
      env: (id): Record<string, string> => (id === BENCH_FORM_NODE ? { REPLICANT_JAVA_OPTS: BENCH_FORM_OPTS } : {}),
    });
    const readers = [0, 1].map((id) => new StatusReader(cluster.logPath(id)));
    // (a JVM on two loaded cores can take a while to log its first line)
    await waitUntil(() => readers.every((r) => r.stamped().length > 0), 60_000);
    for (const r of readers) firstStatus.push(r.stamped()[0]?.status);
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('runs the JVM with its native heap trimmed once a second', () => {
    const status = firstStatus[LAUNCHER_NODE];
    expect(status, 'a status line from the node started with the launcher\'s options').toBeDefined();
    expect(status!.jvm_native_trim_interval_ms, JSON.stringify(status)).toBe(1000);
  });

  it('takes REPLICANT_JAVA_OPTS instead of its own options, so a heap below 256 MiB starts', () => {
    const status = firstStatus[BENCH_FORM_NODE];
    expect(status, `a status line from the node started with REPLICANT_JAVA_OPTS='${BENCH_FORM_OPTS}'`).toBeDefined();
    expect(status!.jvm_heap_committed_bytes!, JSON.stringify(status)).toBeLessThanOrEqual(128 * MiB);
    // the launcher's options are not added: no trim unless the caller asks for it
    expect(status!.jvm_native_trim_interval_ms, JSON.stringify(status)).toBe(0);
  });
});
