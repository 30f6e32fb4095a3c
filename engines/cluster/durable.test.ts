// The scripted kill -9 test (docs/protocol.md, "Write-ahead log"): a 3-node cluster in
// durability log under concurrent load; kill -9 a follower, restart it from its data dir; kill
// -9 the leader, restart it from its data dir; kill -9 a follower, wipe its disk, restart it:
// it rejoins by state transfer; then kill -9 all three at once and restart them all from their
// data dirs (in durability none this loses every acknowledged write). Every history is checked by Porcupine, every acknowledged write
// is read back at the end, and each restarted node must execute what the others had executed
// when it came back. Every wait is on the cluster's state (acknowledged operations, status
// lines), never a fixed delay. REPLICANT_CLUSTER_ENGINES picks the mixes (default: all Go).
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatHistory } from '@replicant/checker/lincheck';
import { checkNative } from '@replicant/checker/node';
import type { EngineName } from '../loader/engine.ts';
import { serverCommand } from '../loader/node-loaders.ts';
import { freePorts } from './ports.ts';
import { waitUntil } from './client.ts';
import { DURABLE_SCRIPT, runNemesis } from '../nemesis/nemesis.ts';
import { NativeCluster } from './launcher.ts';
import { ReplicantClient } from './client.ts';
import { StatusReader } from './node-status.ts';
import { walFrame as frame } from './wal-frame.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);

/** Every server reads the same frames and refuses or repairs a damaged log the same way. */
describe.each([...new Set(mixes.flat())])('%s server write-ahead log on disk', (engine) => {
  const promise = frame('{"kind":"promise","ballot":256}');
  const setup = async () => {
    const dir = mkdtempSync(join(tmpdir(), `replicant-wal-${engine}-`));
    const [peer, client] = await freePorts(2);
    const config = join(dir, 'cluster.json');
    writeFileSync(config, JSON.stringify({ peers: [`127.0.0.1:${peer}`], clients: [`127.0.0.1:${client}`] }));
    const [cmd, ...pre] = serverCommand(engine);
    return { dir, args: [...pre, '--config', config, '--id', '0'], cmd: cmd! };
  };

  it('refuses to start on a corrupt record in the middle, naming the file and the offset', async () => {
    const { dir, cmd, args } = await setup();
    const bad = Buffer.from(promise);
    bad[12]! ^= 1;
    writeFileSync(join(dir, 'wal.log'), Buffer.concat([bad, promise]));
    const r = spawnSync(cmd, [...args, '--data-dir', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('wal.log');
    expect(r.stderr).toContain('corrupt record at offset 0');
    expect(statSync(join(dir, 'wal.log')).size).toBe(2 * promise.length); // left as it was
    const missing = spawnSync(cmd, [...args, '--data-dir', join(dir, 'missing')], { encoding: 'utf8', timeout: 30_000 });
    expect(missing.status, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('missing');
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start on a corrupt snapshot, naming the file', async () => {
    const { dir, cmd, args } = await setup();
    const checkpoint = frame('{"kind":"checkpoint","ballot":256,"last_executed":3,"kv":[["k","3"]]}');
    checkpoint[12]! ^= 1;
    writeFileSync(join(dir, 'snapshot'), checkpoint);
    const r = spawnSync(cmd, [...args, '--data-dir', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('corrupt snapshot');
    expect(r.stderr).toContain(join(dir, 'snapshot'));
    rmSync(dir, { recursive: true, force: true });
  });

  it('truncates a torn tail with a warning and starts from the good frames', async () => {
    const { dir, cmd, args } = await setup();
    writeFileSync(join(dir, 'wal.log'), Buffer.concat([promise, promise.subarray(0, 11)]));
    const child = spawn(cmd, [...args, '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const started = await waitUntil(() => /torn tail at offset 39/.test(out) && /restarted from .*: 1 records/.test(out), 30_000);
    child.kill('SIGKILL');
    expect(started, out).toBe(true);
    // the torn bytes are gone; what the node wrote since follows the good frame
    expect(readFileSync(join(dir, 'wal.log')).subarray(0, promise.length)).toEqual(promise);
    expect(readFileSync(join(dir, 'wal.log')).subarray(promise.length, promise.length + 11).equals(promise.subarray(0, 11))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.each(mixes)('durable cluster %s,%s,%s', (...engines) => {
  it('kill -9 a follower, the leader, a wiped follower, then all three: nothing acknowledged is lost', async () => {
    const lines: string[] = [];
    // kept for a failure's message: the servers' logs and (below) the history
    const keep = mkdtempSync(join(tmpdir(), `replicant-durable-${engines.join('-')}-`));
    const r = await runNemesis({
      engines,
      log_dir: keep,
      durability: 'log',
      seed: 13,
      duration_ms: 0,
      tail_ms: 300,
      clients: 3,
      // Every write a kill leaves unanswered stays open to the end of the history, and Porcupine's
      // search grows with the open writes per key: on 4 keys (~17 each) two histories were still
      // undecided after 280 s (fresh-clone run, stop 28), so the same load is spread over 8.
      keys: ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'],
      faults: [],
      script: DURABLE_SCRIPT,
      acks_between: 30,
      // a follower of an all-Java cluster has been seen stuck behind for ~30 s under this
      // machine's load (before it was killed, too: a liveness matter of issue 18/20, not of
      // durability); the bound leaves room for that and still fails a node that never catches up
      wait_timeout_ms: 90_000,
      commit_interval_ms: 50,
      request_timeout_ms: 1500,
      // the waits on a restarted node's progress read status lines: ten a second, not one
      status_interval_ms: FINE_STATUS_INTERVAL_MS,
      // long histories: the native checker, with a time limit (as npm run nemesis)
      check: (h) => checkNative(h, 120),
      log: (l) => lines.push(l),
    });
    writeFileSync(join(keep, 'history.jsonl'), formatHistory(r.history));
    const context = `${lines.join('\n')}\nproblems: ${r.problems.join('; ')}\nhistory and server logs: ${keep}`;
    const one = r.faults.slice(0, 6); // the three single kills and their restarts; then all at once
    expect(one.filter((f) => f.kind === 'kill').map((f) => f.was_leader), context).toEqual([false, true, false]);
    expect(one.filter((f) => f.kind === 'restart').map((f) => f.caught_up_ms !== null), context).toEqual([true, true, true]);
    expect(r.faults.slice(6).map((f) => f.kind), context).toEqual(['kill', 'kill', 'kill', 'restart', 'restart', 'restart']);
    expect(r.faults.find((f) => f.wiped), context).toBeTruthy();
    expect(r.verdict.verdict, context).toBe('linearizable');
    expect(r.lost_writes, context).toEqual([]);
    expect(r.problems, context).toEqual([]);
    expect(r.acknowledged, context).toBeGreaterThan(200);
    rmSync(keep, { recursive: true, force: true });
  }, 600_000);
});

/** Compaction (docs/protocol.md, "Compaction"): under a long load every node's write-ahead log
 * stays bounded, and a cluster killed at once restarts from its snapshots and logs with every
 * acknowledged write. */
/** Room for one write-ahead log record (an accepted or committed slot is well under it). */
const BYTES_PER_RECORD = 250;
/** Room for every record of one slot (the bound held since compaction was built: 8 records). */
const BYTES_PER_SLOT = 8 * BYTES_PER_RECORD;

describe.each(mixes)('durable cluster %s,%s,%s: compaction', (...engines) => {
  it('every write-ahead log stays bounded under a long load, and a restart from snapshot + log reads back every write', async () => {
    const SNAPSHOT_EVERY = 32;
    const PUTS = 2000;
    const cluster = await NativeCluster.start({ engines, commitIntervalMs: 50, durability: 'log', fsync: 'never', snapshotEvery: SNAPSHOT_EVERY, statusIntervalMs: 100 });
    const client = new ReplicantClient(cluster.config.clients);
    try {
      const want = new Map<string, string>();
      const walBytes = () => engines.map((_, id) => statSync(join(cluster.dataDirPath(id)!, 'wal.log'), { throwIfNoEntry: false })?.size ?? 0);
      const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
      // A log holds the slots since its last checkpoint and those accepted and not yet executed
      // (one record each): each sample is held to that, with the node's backlog from its newest
      // status line (100 ms apart; the one client writes fewer than STALE_SLOTS puts between
      // two). A log that is not compacted passes the bound within a few hundred puts. A fixed
      // bound failed a JVM follower that lagged half the load behind (305,606 bytes against
      // 300,000, fresh-clone CI at 10aa7e9), which compaction does not bound.
      const STALE_SLOTS = 200;
      const walBound = (backlog: number) => SNAPSHOT_EVERY * BYTES_PER_SLOT + (backlog + STALE_SLOTS) * BYTES_PER_RECORD;
      const overBound: string[] = [];
      const maxWal = engines.map(() => 0);
      for (let i = 0; i < PUTS; i++) {
        const key = `k${i % 50}`;
        expect(await client.request(`put ${key} v${i}`, 30_000)).toBe('');
        want.set(key, `v${i}`);
        if (i % 10 === 0) {
          const backlogs = readers.map((r) => {
            const s = r.latest();
            return s ? Math.max(0, s.last_index - s.last_executed) : i; // no line yet: all of it
          });
          walBytes().forEach((b, id) => {
            maxWal[id] = Math.max(maxWal[id]!, b);
            if (b > walBound(backlogs[id]!)) overBound.push(`n${id} ${b} bytes with ${backlogs[id]} slots not executed at put ${i}`);
          });
        }
      }
      // every node must have executed every put (a JVM may still be starting, or catching up)
      const caughtUp = await waitUntil(() => readers.every((r) => (r.latest()?.last_executed ?? 0) >= PUTS), 120_000);
      expect(caughtUp, `last_executed per node: ${readers.map((r) => r.latest()?.last_executed).join(', ')}`).toBe(true);
      // A put is written at least twice (accepted, committed) in 150 bytes or more: without
      // compaction every log would end above PUTS x 300 bytes. With it a log holds the slots
      // since its last checkpoint: once a node has executed everything, about snapshot_every.
      const caughtUpBound = SNAPSHOT_EVERY * BYTES_PER_SLOT;
      const atEnd = walBytes();
      expect(
        atEnd.every((b) => b <= caughtUpBound) && overBound.length === 0,
        `write-ahead log per node once caught up ${atEnd.join(', ')} bytes (bound ${caughtUpBound}); largest during the load ${maxWal.join(', ')}; over the backlog's bound: ${overBound.slice(0, 5).join('; ') || 'none'}`,
      ).toBe(true);
      for (let id = 0; id < engines.length; id++) {
        expect(statSync(join(cluster.dataDirPath(id)!, 'snapshot')).size, `n${id} snapshot`).toBeGreaterThan(0);
      }
      for (let id = 0; id < engines.length; id++) await cluster.kill(id);
      for (let id = 0; id < engines.length; id++) cluster.startNode(id);
      for (const [key, value] of want) expect(await client.request(`get ${key}`, 60_000), key).toBe(value);
    } finally {
      client.close();
      await cluster.stop();
    }
  }, 600_000);
});
