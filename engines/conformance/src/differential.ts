// The differential test: seeded random event sequences — deliveries in any order, drops,
// duplicates, timer firings, one- and two-way partitions, crashes and restarts, client
// commands (good and bad) — run on several engines. Every engine must produce the same
// output, step by step, and the same final inspect views. A divergence reports the seed and
// the first differing step so it can be replayed with --seed.
import type { AsyncEngine } from '../../loader/engine.ts';
import { Cluster, HarnessError, TimerName } from './cluster.ts';

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

const KEYS = ['a', 'b', 'c', 'user0000000000000000001', 'k'];
const BAD_LINES = ['', 'GET a', 'put a', 'get a b', 'del', 'scan x'];

/** Runs one random sequence on one engine. The choices depend only on the seed and the
 * cluster's observable state, so identical engines make identical choices. */
export async function runSequence(engine: AsyncEngine, opts: SequenceOptions): Promise<SequenceResult> {
  const rand = mulberry32(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const n = opts.numNodes ?? (rand() < 0.8 ? 3 : 5);
  // Knobs vary too, so that every engine's handling of them is compared.
  const knobs = {
    trace: rand() < 0.9,
    maxPendingAccepts: rand() < 0.8 ? 4096 : 2,
    acceptTimeoutTicks: rand() < 0.8 ? 3 : 1,
  };
  const cluster = await Cluster.create(engine, { numNodes: n, seed: opts.seed, commitIntervalUs: 150_000, ...knobs });
  const steps: string[] = [`create n=${n} ${JSON.stringify(knobs)}\n${cluster.take().join('\n')}`];
  let clientSeq = 0;
  try {
    for (let i = 0; i < opts.steps; i++) {
      const r = rand();
      let action: string;
      const up = [...Array(n).keys()].filter((id) => cluster.isUp(id));
      const armed = up.flatMap((id) => [...cluster.timers[id]!.keys()].map((t) => [id, t] as [number, TimerName]));
      try {
        if (r < 0.45 && cluster.pending.length > 0) {
          // Mostly the oldest message, sometimes any: reordering.
          const m = rand() < 0.6 ? cluster.pending[0]! : pick(cluster.pending);
          action = `deliver m${m.id}`;
          await cluster.deliver({ id: m.id });
        } else if (r < 0.5 && cluster.pending.length > 0) {
          const m = pick(cluster.pending);
          action = `drop m${m.id}`;
          cluster.drop({ id: m.id });
        } else if (r < 0.53 && cluster.pending.length > 0) {
          const m = pick(cluster.pending);
          action = `dup m${m.id}`;
          cluster.duplicate({ id: m.id });
        } else if (r < 0.7 && armed.length > 0) {
          const [id, t] = pick(armed);
          action = `fire n${id} ${t}`;
          await cluster.fire(id, t);
        } else if (r < 0.9 && up.length > 0) {
          const id = pick(up);
          const c = rand();
          const key = pick(KEYS);
          const line = c < 0.45 ? `put ${key} v${i}` : c < 0.85 ? `get ${key}` : c < 0.95 ? `del ${key}` : pick(BAD_LINES);
          action = `client n${id} ${JSON.stringify(line)}`;
          await cluster.client(id, 1 + (clientSeq % 7), ++clientSeq, line);
        } else if (r < 0.94) {
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
            action = `restart n${id}`;
            await cluster.restart(id);
          } else action = 'noop';
        }
      } catch (err) {
        if (!(err instanceof HarnessError)) throw err;
        action = `harness: ${err.message}`;
      }
      steps.push(`${action}\n${cluster.take().join('\n')}`);
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
 * that executed up to the same index hold the same KV state. Only until the first restart:
 * a restarted node has forgotten its promises and accepted values (Replicant keeps no
 * durable state), and with that amnesia Paxos itself gives no guarantee — the lab shows
 * such runs, it does not count them as engine bugs. */
export function safetyProblems(result: SequenceResult): string[] {
  const problems: string[] = [];
  const firstRestart = result.steps.findIndex((s) => s.startsWith('restart '));
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
