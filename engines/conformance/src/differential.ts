// The differential test: seeded random event sequences — deliveries in any order, drops,
// duplicates, damaged messages and garbage events, timer firings, one- and two-way
// partitions, GC announcements and their ends (gc_pending / gc_done, in every mitigation mode),
// crashes and restarts (in durability log: from the node's disk, or wiped;
// persists completed at once or at random later steps), client commands (good and bad), with
// cluster sizes 1–5 and varying knobs — run on several engines. Every engine must produce the same
// output, step by step, and the same final inspect views. A divergence reports the seed and
// the first differing step so it can be replayed with --seed.
import type { AsyncEngine } from '../../loader/engine.ts';
import { AsyncScriptedCluster as Cluster, HarnessError, type TimerName } from '../../scripted/index.ts';

/** Mulberry32: a small, fast, well-mixed 32-bit PRNG for choosing actions. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SequenceOptions {
  seed: number;
  steps: number;
  numNodes?: number;
}

export interface SequenceResult {
  /** One entry per step: the action and every output line it produced. */
  steps: string[];
  finalViews: string[];
}

const KEYS = ['a', 'b', 'c', 'user0000000000000000001', 'k', '~'];
const BAD_LINES = ['', 'GET a', 'put a', 'get a b', 'get  a', 'del', 'scan x', 'get a\tb', 'put \u00e9 1'];
const GARBAGE_EVENTS = ['', '{}', 'null', '[', '{"type":"start","x":1}', '{"type":"timer","timer":"later"}',
  '{"type":"message","msg":{"type":"prepare_request"}}', '{"type":"client","client_id":1,"request_id":1}'];

function clientLine(rand: () => number, pick: <T>(xs: readonly T[]) => T, step: number): string {
  const c = rand();
  const key = pick(KEYS);
  if (c < 0.45) return `put ${key} ${pick([`v${step}`, '', 'two words', 'x'.repeat(Math.floor(rand() * 40)), '"quoted" \\'])}`;
  if (c < 0.85) return `get ${key}`;
  if (c < 0.95) return `del ${key}`;
  return pick(BAD_LINES);
}

/** Damages a message the way a faulty peer or a broken link might (every engine must agree
 * on what the damaged message means, or that it means nothing). */
function corrupt(rand: () => number, pick: <T>(xs: readonly T[]) => T, json: string): string {
  const int = (n: number) => Math.floor(rand() * n);
  switch (int(7)) {
    case 0:
      return json.slice(0, int(json.length));
    case 1:
      return json.replace(/"to":\d+/, `"to":${int(5)}`);
    case 2:
      return json.replace(/"from":\d+/, `"from":${int(17)}`);
    case 3:
      return json.replace(/"ballot":\d+/, `"ballot":${pick([0, 15, 14, 257, 9007199254740991, 9007199254740992])}`);
    case 4:
      return json.replace(/"index":\d+/, `"index":${int(3)}`);
    case 5:
      return json.replace('"in_progress"', pick(['"committed"', '"executed"', '"done"']));
    default:
      return json.replace(/"channel_id":\d+/, `"channel_id":${int(6)}`);
  }
}

/** Runs one random sequence on one engine. The choices depend only on the seed and the
 * cluster's observable state, so identical engines make identical choices. */
export async function runSequence(engine: AsyncEngine, opts: SequenceOptions): Promise<SequenceResult> {
  const rand = mulberry32(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const n = opts.numNodes ?? pick([1, 2, 3, 3, 3, 3, 5]);
  // Knobs vary too, so that every engine's handling of them is compared.
  const knobs = {
    trace: rand() < 0.85,
    max_pending_accepts: rand() < 0.8 ? 4096 : 1 + Math.floor(rand() * 4),
    accept_timeout_ticks: rand() < 0.7 ? 3 : 1 + Math.floor(rand() * 3),
    commit_interval_us: rand() < 0.8 ? 150_000 : 1000 + Math.floor(rand() * 100_000),
    check_quorum: rand() < 0.5,
    repair_batch: rand() < 0.5 ? 0 : 1 + Math.floor(rand() * 8),
    election_batch: rand() < 0.5 ? 0 : 1 + Math.floor(rand() * 4),
    durability: rand() < 0.5 ? ('none' as const) : ('log' as const),
    manual_persist: rand() < 0.5,
    // GC mitigation: gc_pending and gc_done events below, in every mode (none answers collect)
    mitigation: pick(['none', 'blade', 'blade', 'mitmem', 'both'] as const),
    mitmem_deadline_us: rand() < 0.7 ? 20_000 : Math.floor(rand() * 100_000),
    // durability log: checkpoints, and a disk the harness compacts at each (restarts read it)
    snapshot_every: rand() < 0.5 ? 0 : 1 + Math.floor(rand() * 8),
    log_bound: 0,
  };
  // the log bound and checkpoints need repair and bounded elections (docs/protocol.md, "Log
  // bound", "Compaction"); snapshot_every is drawn either way so the stream stays as it was
  if (knobs.repair_batch === 0 || knobs.election_batch === 0) knobs.snapshot_every = 0;
  if (knobs.repair_batch > 0 && knobs.election_batch > 0 && rand() < 0.5) knobs.log_bound = 1 + Math.floor(rand() * 8);
  const cluster = await Cluster.start(engine, { num_nodes: n, seed: opts.seed, ...knobs });
  const durable = knobs.durability === 'log';
  const steps: string[] = [`create n=${n} ${JSON.stringify(knobs)}\n${cluster.take().join('\n')}`];
  let clientSeq = 0;
  try {
    for (let i = 0; i < opts.steps; i++) {
      const r = rand();
      let action: string;
      const up = [...Array(n).keys()].filter((id) => cluster.isUp(id));
      const armed = up.flatMap((id) => [...cluster.core.timers[id]!.keys()].map((t) => [id, t] as [number, TimerName]));
      const persisting = up.filter((id) => cluster.core.unpersisted[id]!.length > 0);
      try {
        const collecting = up.filter((id) => cluster.core.collecting.has(id));
        if (collecting.length > 0 && rand() < 0.06) {
          const id = pick(collecting);
          action = `gc-done n${id}`;
          await cluster.gcDone(id);
        } else if (up.length > 0 && rand() < 0.03) {
          const id = pick(up);
          const pauseUs = pick([500, 5_000, 30_000, 200_000, 1_500_000]);
          action = `gc-pending n${id} ${pauseUs}`;
          await cluster.gcPending(id, pauseUs);
        } else if (persisting.length > 0 && rand() < 0.3) {
          // Persists complete in order, each node's at its own pace (manual persist only).
          const id = pick(persisting);
          action = `persist n${id}`;
          await cluster.completePersist(id);
        } else if (r < 0.45 && cluster.core.pending.length > 0) {
          // Mostly the oldest message, sometimes any (reordering), rarely damaged on the way.
          const m = rand() < 0.6 ? cluster.core.pending[0]! : pick(cluster.core.pending);
          if (rand() < 0.03 && cluster.isUp(m.to)) {
            action = `corrupt m${m.id}`;
            cluster.drop({ id: m.id });
            await cluster.deliverRaw(m.to, `{"type":"message","msg":${corrupt(rand, pick, m.json)}}`);
          } else {
            action = `deliver m${m.id}`;
            await cluster.deliver({ id: m.id });
          }
        } else if (r < 0.5 && cluster.core.pending.length > 0) {
          const m = pick(cluster.core.pending);
          action = `drop m${m.id}`;
          cluster.drop({ id: m.id });
        } else if (r < 0.53 && cluster.core.pending.length > 0) {
          const m = pick(cluster.core.pending);
          action = `dup m${m.id}`;
          cluster.duplicate({ id: m.id });
        } else if (r < 0.7 && armed.length > 0) {
          const [id, t] = pick(armed);
          action = `fire n${id} ${t}`;
          await cluster.fire(id, t);
        } else if (r < 0.88 && up.length > 0) {
          const id = pick(up);
          const line = clientLine(rand, pick, i);
          action = `client n${id} ${JSON.stringify(line)}`;
          await cluster.client(id, 1 + (clientSeq % 7), ++clientSeq, line);
        } else if (r < 0.9 && up.length > 0) {
          const id = pick(up);
          const raw = pick(GARBAGE_EVENTS);
          action = `garbage n${id} ${JSON.stringify(raw)}`;
          await cluster.deliverRaw(id, raw);
        } else if (r < 0.94 && n > 1) {
          const a = Math.floor(rand() * n);
          const b = (a + 1 + Math.floor(rand() * (n - 1))) % n;
          action = `cut ${a}->${b}`;
          cluster.cut(a, b);
        } else if (r < 0.97) {
          action = 'heal';
          cluster.heal();
        } else {
          const id = Math.floor(rand() * n);
          if (cluster.isUp(id) && up.length > 1) {
            action = `crash n${id}`;
            await cluster.crash(id);
          } else if (!cluster.isUp(id)) {
            // In durability log a node mostly comes back from its disk; now and then its disk
            // is lost too, which brings back durability none's amnesia for that node.
            const wiped = durable && rand() < 0.2;
            action = wiped ? `restart-wiped n${id}` : `restart n${id}`;
            await cluster.restart(id, wiped);
          } else action = 'noop';
        }
      } catch (err) {
        if (!(err instanceof HarnessError)) throw err;
        action = `harness: ${err.message}`;
      }
      const out = cluster.take();
      if (i % 25 === 24) {
        for (let id = 0; id < n; id++) out.push(cluster.isUp(id) ? `view n${id} ${await cluster.inspect(id)}` : `view n${id} down`);
      }
      steps.push(`${action}\n${out.join('\n')}`);
    }
    const finalViews: string[] = [];
    for (let id = 0; id < n; id++) finalViews.push(cluster.isUp(id) ? await cluster.inspect(id) : 'down');
    return { steps, finalViews };
  } finally {
    await cluster.close();
  }
}

export interface Divergence {
  seed: number;
  step: number;
  engines: [string, string];
  expected: string;
  actual: string;
}

/** Compares a reference run with another engine's run of the same seed. */
export function firstDivergence(seed: number, names: [string, string], a: SequenceResult, b: SequenceResult): Divergence | null {
  const len = Math.max(a.steps.length, b.steps.length);
  for (let i = 0; i < len; i++) {
    if (a.steps[i] !== b.steps[i]) {
      return { seed, step: i, engines: names, expected: a.steps[i] ?? '(none)', actual: b.steps[i] ?? '(none)' };
    }
  }
  for (let id = 0; id < Math.max(a.finalViews.length, b.finalViews.length); id++) {
    if (a.finalViews[id] !== b.finalViews[id]) {
      return { seed, step: len, engines: names, expected: `n${id} ${a.finalViews[id]}`, actual: `n${id} ${b.finalViews[id]}` };
    }
  }
  return null;
}

/** Safety checks every run must pass whatever the engine: no violation traced, and nodes
 * that executed up to the same index hold the same KV state. In durability none only until
 * the first restart: a restarted node has forgotten its promises and accepted values
 * (Replicant keeps no durable state), and with that amnesia Paxos itself gives no guarantee —
 * the lab shows such runs, it does not count them as engine bugs. In durability log a node
 * restarted from its disk remembers, so the checks hold until a node restarts wiped. */
export function safetyProblems(result: SequenceResult): string[] {
  const problems: string[] = [];
  const durable = result.steps[0]?.includes('"durability":"log"') ?? false;
  const firstRestart = result.steps.findIndex((s) =>
    durable ? s.startsWith('restart-wiped ') : s.startsWith('restart ') || s.startsWith('restart-wiped '));
  const checked = firstRestart < 0 ? result.steps : result.steps.slice(0, firstRestart);
  checked.forEach((s, i) => {
    if (s.includes('"kind":"violation"')) problems.push(`step ${i}: safety violation traced`);
  });
  if (firstRestart >= 0) return problems;
  const views = result.finalViews.filter((v) => v !== 'down').map((v) => JSON.parse(v));
  for (const a of views) {
    for (const b of views) {
      if (a.id < b.id && a.last_executed === b.last_executed && a.kv.digest !== b.kv.digest) {
        problems.push(`n${a.id} and n${b.id} executed up to ${a.last_executed} but hold different KV states`);
      }
    }
  }
  return problems;
}
