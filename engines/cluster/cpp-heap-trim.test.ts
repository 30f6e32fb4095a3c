// The C++ server hands freed heap back to the kernel (server/heap_trim.cc: malloc_trim once a
// second). glibc returns by itself only free memory at the top of the heap, so after a burst of
// large values is deleted and its log entries trimmed, a node kept the burst's high-water mark in
// its RSS: the held steps of issue 20's memory run (docs/reliability.md, "Issue 20's open
// questions", 2). Here: a burst of 64 KiB values, deleted, the log trimmed past the deletes;
// every node's RSS must come back to within RETURN_SLACK_BYTES of its level before the burst.
// Small values written between the large ones stay, as a store's other keys would: without
// them the burst's memory sometimes sat at the top of the heap, which glibc gives back itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplicantClient, waitUntil } from './client.ts';
import { NativeCluster } from './launcher.ts';
import { StatusReader, residentParts } from './node-status.ts';
import { settledLeader } from './reset-failover.ts';

const MiB = 1 << 20;
/** The largest value a command may carry (docs/protocol.md, "Command"). */
const VALUE_BYTES = 65_536;
/** Keys the burst writes, each once: 32 MiB of values held in every node's store at its peak. */
const BURST_KEYS = 512;
/** Clients writing the burst at once, so a node's log and peer lines hold several values. */
const BURST_CLIENTS = 8;
/** What a node may keep of the burst: buffers that grew with it and stay allocated (a peer
 * connection's line buffer keeps its capacity). The burst's freed memory is 30+ MiB per node. */
const RETURN_SLACK_BYTES = 8 * MiB;
/** How long the RSS may take to come back: a few trim intervals on a loaded machine. */
const RETURN_WAIT_MS = 15_000;

function rssOf(cluster: NativeCluster): number[] {
  return cluster.processes.map((p) => residentParts(p!.pid!)?.totalBytes ?? Number.NaN);
}

describe('the C++ server after a burst of large values', () => {
  let cluster: NativeCluster;
  let readers: StatusReader[];
  const clients: ReplicantClient[] = [];

  beforeAll(async () => {
    cluster = await NativeCluster.start({ engines: ['cpp', 'cpp', 'cpp'], statusIntervalMs: 100 });
    readers = [0, 1, 2].map((id) => new StatusReader(cluster.logPath(id)));
    await settledLeader(readers);
    for (let c = 0; c < BURST_CLIENTS; c++) clients.push(new ReplicantClient(cluster.config.clients, { timeoutMs: 10_000 }));
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.stop();
  });

  /** Until every node has executed and trimmed everything written so far: each node's newest
   * status line has gle at the leader's last index, as it stood when this was called. */
  async function everyLogTrimmed(): Promise<boolean> {
    const newest = () => readers.map((r) => r.latest() ?? undefined);
    const target = Math.max(...newest().map((s) => s?.last_index ?? 0));
    // (the commit heartbeats carry gle on to every node with no further writes)
    return waitUntil(() => newest().every((s) => s !== undefined && s.global_last_executed >= target && s.last_index - s.global_last_executed <= 2), 20_000);
  }

  async function writeAll(lines: (k: number) => string, keys: number): Promise<void> {
    await Promise.all(
      clients.map(async (client, c) => {
        for (let k = c; k < keys; k += BURST_CLIENTS) expect(await client.request(lines(k), 30_000)).toMatch(/^(|not_found)$/);
      }),
    );
  }

  it('returns the freed memory to the kernel', async () => {
    // the working size of buffers and maps before the burst: small writes to the same keys
    await writeAll((k) => `put burst${k} small`, BURST_KEYS);
    await writeAll((k) => `del burst${k}`, BURST_KEYS);
    expect(await everyLogTrimmed(), 'every log trimmed after the warm-up').toBe(true);
    const before = rssOf(cluster);

    const value = 'v'.repeat(VALUE_BYTES);
    // each large value followed by a small one that stays: what the store keeps is spread over
    // the heap the burst took, so its free pages are not all at the top, as in a real store
    await writeAll((k) => (k % 2 === 0 ? `put burst${k >> 1} ${value}` : `put kept${k >> 1} small`), 2 * BURST_KEYS);
    const peak = rssOf(cluster);
    await writeAll((k) => `del burst${k}`, BURST_KEYS);
    expect(await everyLogTrimmed(), 'every log trimmed after the deletes').toBe(true);
    const trimmedAt = rssOf(cluster);

    const back = await waitUntil(() => rssOf(cluster).every((rss, i) => rss <= before[i]! + RETURN_SLACK_BYTES), RETURN_WAIT_MS);
    const after = rssOf(cluster);
    const mib = (xs: number[]) => xs.map((x) => (x / MiB).toFixed(1)).join('/');
    const figures = `RSS MiB before ${mib(before)}, after the burst ${mib(peak)}, when every log was trimmed ${mib(trimmedAt)}, ${back ? 'back at' : `${RETURN_WAIT_MS / 1000} s later`} ${mib(after)}`;
    console.log(`cpp heap trim: ${figures}`);
    // the burst must have been held, or the test shows nothing
    for (const [i, p] of peak.entries()) expect(p - before[i]!, `node ${i} held the burst (${figures})`).toBeGreaterThan(16 * MiB);
    expect(back, `every node's RSS within ${RETURN_SLACK_BYTES / MiB} MiB of its level before the burst (${figures})`).toBe(true);
  }, 120_000);
});
