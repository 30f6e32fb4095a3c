// Differential test: drives the Rust engine and the Go reference in lockstep through random
// cluster histories (elections, client commands, lost / duplicated / reordered / corrupted
// messages, timers, crashes and restarts) and demands byte-identical effects and inspect views
// after every step. A bench command, not part of CI (it needs the Go engine built too):
//
//   npx tsx engines/rust-wasm/difftest.ts [--runs 20] [--steps 3000] [--seed 1]
//        [--target native|wasm-node] [--nodes 3]
//
// Exits 1 at the first difference, printing the history's seed and the step.
import { parseArgs } from 'node:util';
import { loadEngine } from '../loader/node-loaders.ts';
import type { AsyncEngine, AsyncNode } from '../loader/engine.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    steps: { type: 'string', default: '3000' },
    seed: { type: 'string', default: '1' },
    target: { type: 'string', default: 'native' },
    nodes: { type: 'string' },
    other: { type: 'string', default: 'rust' },
  },
});

/** A small seeded PRNG (xorshift32) for the test's own choices. */
class Rand {
  constructor(private s: number) {
    if (this.s === 0) this.s = 0x9e3779b9;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  int(n: number): number {
    return this.next() % n;
  }
  pick<T>(xs: T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() / 0x100000000 < p;
  }
}

interface Msg {
  from: number;
  to: number;
  json: string;
}

const SEND = '{"type":"send","msg":';

class Twin {
  nodes: ([AsyncNode, AsyncNode] | null)[] = [];
  incarnation: number[] = [];
  timers: Set<string>[] = [];
  pending: Msg[] = [];
  steps = 0;

  constructor(
    readonly a: AsyncEngine,
    readonly b: AsyncEngine,
    readonly n: number,
    readonly seed: number,
    readonly knobs: Record<string, number | boolean>,
  ) {}

  async boot(id: number): Promise<void> {
    this.incarnation[id] = (this.incarnation[id] ?? -1) + 1;
    const cfg = { id, num_peers: this.n, seed: this.seed + id + 16 * this.incarnation[id]!, ...this.knobs };
    this.nodes[id] = [await this.a.createNode(cfg), await this.b.createNode(cfg)];
    this.timers[id] = new Set();
    await this.step(id, '{"type":"start"}');
  }

  async step(id: number, event: string): Promise<void> {
    const pair = this.nodes[id];
    if (!pair) return;
    this.steps++;
    const [x, y] = await Promise.all([pair[0].step(event), pair[1].step(event)]);
    if (x !== y) fail(`step n${id} ${event}`, x, y);
    const [ix, iy] = await Promise.all([pair[0].inspect(), pair[1].inspect()]);
    if (ix !== iy) fail(`inspect n${id} after ${event}`, ix, iy);
    for (const line of x === '' ? [] : x.slice(0, -1).split('\n')) {
      if (line.startsWith(SEND)) {
        const json = line.slice(SEND.length, -1);
        const m = JSON.parse(json) as { from: number; to: number };
        this.pending.push({ from: m.from, to: m.to, json });
        seen.set('send ' + (JSON.parse(json) as { type: string }).type, (seen.get('send ' + (JSON.parse(json) as { type: string }).type) ?? 0) + 1);
      } else {
        const e = JSON.parse(line) as { type: string; timer?: string; kind?: string; result?: string };
        const what = e.type === 'trace' ? `trace ${e.kind}` : e.type === 'reply' ? `reply ${e.result}` : e.type;
        seen.set(what, (seen.get(what) ?? 0) + 1);
        if (e.type === 'set_timer') this.timers[id]!.add(e.timer!);
        else if (e.type === 'cancel_timer') this.timers[id]!.delete(e.timer!);
      }
    }
  }

  async crash(id: number): Promise<void> {
    const pair = this.nodes[id];
    if (!pair) return;
    await Promise.all([pair[0].destroy(), pair[1].destroy()]);
    this.nodes[id] = null;
    this.pending = this.pending.filter((m) => m.to !== id);
  }
}

let currentSeed = 0;
/** How often each kind of effect was seen: shows what the histories exercised. */
const seen = new Map<string, number>();
function fail(what: string, x: string, y: string): never {
  const xs = x.split('\n');
  const ys = y.split('\n');
  let i = 0;
  while (i < xs.length && xs[i] === ys[i]) i++;
  console.log(`DIFFERENCE (history seed ${currentSeed}) at ${what}\n  go:   ${xs[i]}\n  ${values.other}: ${ys[i]}`);
  process.exit(1);
}

const KEYS = ['a', 'b', 'c', 'k', 'key"q', 'back\\slash'];
function clientLine(r: Rand): string {
  const k = r.pick(KEYS);
  switch (r.int(8)) {
    case 0:
      return `get ${k}`;
    case 1:
      return `del ${k}`;
    case 2:
      return r.pick(['', 'get', 'put k', 'get a b', 'PUT k v', 'get \u00e9', 'put k v\t', 'del  k']);
    default:
      return `put ${k} ${r.pick(['v', '', 'two words', 'x'.repeat(r.int(40)), '"quoted" \\'])}`;
  }
}

/** Corrupts a message the way a faulty peer or a broken link might. */
function corrupt(r: Rand, json: string): string {
  switch (r.int(7)) {
    case 0:
      return json.slice(0, r.int(json.length));
    case 1:
      return json.replace(/"to":\d+/, `"to":${r.int(5)}`);
    case 2:
      return json.replace(/"from":\d+/, `"from":${r.int(17)}`);
    case 3:
      return json.replace(/"ballot":\d+/, `"ballot":${r.pick([0, 15, 14, 257, 9007199254740991, 9007199254740992])}`);
    case 4:
      return json.replace(/"index":\d+/, `"index":${r.int(3)}`);
    case 5:
      return json.replace('"in_progress"', r.pick(['"committed"', '"executed"', '"done"']));
    default:
      return json.replace(/"channel_id":\d+/, `"channel_id":${r.int(6)}`);
  }
}

async function history(a: AsyncEngine, b: AsyncEngine, seed: number, steps: number): Promise<number> {
  const r = new Rand(seed * 2654435761);
  const n = values.nodes ? Number(values.nodes) : r.pick([1, 2, 3, 3, 3, 5]);
  const knobs: Record<string, number | boolean> = {};
  if (r.chance(0.3)) knobs.accept_timeout_ticks = 1 + r.int(3);
  if (r.chance(0.2)) knobs.max_pending_accepts = 1 + r.int(4);
  if (r.chance(0.2)) knobs.trace = false;
  if (r.chance(0.2)) knobs.commit_interval_us = 1000 + r.int(100000);
  const t = new Twin(a, b, n, seed, knobs);
  for (let id = 0; id < n; id++) await t.boot(id);
  let clientId = 100;
  const requestIds = new Map<number, number>();
  for (let s = 0; s < steps; s++) {
    const up = [...Array(n).keys()].filter((id) => t.nodes[id]);
    const roll = r.int(100);
    if (roll < 45 && t.pending.length > 0) {
      // deliver one message, usually the oldest few (some reordering)
      const i = r.chance(0.7) ? 0 : r.int(Math.min(t.pending.length, 8));
      const m = t.pending.splice(i, 1)[0]!;
      if (r.chance(0.05)) t.pending.push(m); // duplicate
      let json = m.json;
      if (r.chance(0.03)) json = corrupt(r, json);
      await t.step(m.to, `{"type":"message","msg":${json}}`);
    } else if (roll < 50 && t.pending.length > 0) {
      t.pending.splice(r.int(t.pending.length), 1); // lost
    } else if (roll < 68 && up.length > 0) {
      const id = r.pick(up);
      const armed = [...t.timers[id]!];
      if (armed.length > 0) {
        const timer = r.pick(armed);
        t.timers[id]!.delete(timer);
        await t.step(id, `{"type":"timer","timer":"${timer}"}`);
      }
    } else if (roll < 92 && up.length > 0) {
      const id = r.pick(up);
      const c = r.chance(0.8) ? 100 + r.int(3) : ++clientId;
      const req = (requestIds.get(c) ?? 0) + 1;
      requestIds.set(c, req);
      await t.step(id, JSON.stringify({ type: 'client', client_id: c, request_id: req, line: clientLine(r) }));
    } else if (roll < 94 && up.length > 0) {
      const raw = r.pick(['', '{}', '{"type":"start","x":1}', '{"type":"timer","timer":"later"}', 'null', '[', '{"type":"message","msg":{"type":"prepare_request"}}']);
      await t.step(r.pick(up), raw);
    } else if (roll < 96 && up.length > 1) {
      await t.crash(r.pick(up));
    } else {
      const down = [...Array(n).keys()].filter((id) => !t.nodes[id]);
      if (down.length > 0) await t.boot(r.pick(down));
    }
  }
  for (let id = 0; id < n; id++) await t.crash(id);
  return t.steps;
}

async function main() {
  const target = values.target as 'native' | 'wasm-node';
  const a = await loadEngine('go', target);
  const b = await loadEngine(values.other as 'rust', target);
  const runs = Number(values.runs);
  const steps = Number(values.steps);
  const first = Number(values.seed);
  let total = 0;
  const t0 = Date.now();
  for (let i = 0; i < runs; i++) {
    currentSeed = first + i;
    total += await history(a, b, currentSeed, steps);
  }
  await a.close();
  await b.close();
  console.log([...seen.entries()].sort().map(([k, v]) => `  ${k}: ${v}`).join('\n'));
  console.log(`difftest go vs ${values.other} (${target}): ${runs} histories, ${total} steps identical in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
