// Step mode: the real engines driven one event at a time by a student or a lesson. There is no
// CPU or GC model here (pure protocol); the network model gives each message its due time,
// timers are due when the cores asked. Every state change is a recorded choice, so a session is
// rebuilt exactly from (spec, choices) — that is what rewind does.
import type { SyncEngine } from '@replicant/engines/loader/engine';
import type { EngineProvider, NetworkSpec, PendingItem, StepSession, StepSessionSpec, TraceEntry } from '../api.ts';
import { Prng } from '../core/prng.ts';
import { NodeSet } from '../core/nodes.ts';
import { clientEvent, messageEvent, parseEffect, splitLines, START_EVENT, timerEvent, type TimerName } from '../core/effects.ts';
import { Network, type NetworkParams } from '../net/network.ts';
import { STREAM_NETWORK } from '../core/streams.ts';
import { defaultNetwork } from '../models/card.ts';

export type { EngineProvider };

/** The client id step-mode commands carry (one client; request ids count its commands). */
export const STEP_CLIENT_ID = 1;
const MAX_STEPS_PER_RUN = 100_000;

interface PendingMessage { id: number; from: number; to: number; type: string; due_us: number; json: string }
interface PendingTimer { id: number; node: number; timer: TimerName; due_us: number }
interface PendingClient { id: number; node: number; line: string; due_us: number; request_id: number }

export class StepError extends Error {}

export function createStepSession(spec: StepSessionSpec, provide: EngineProvider): StepSession {
  return new Session(spec, provide);
}

class Session implements StepSession {
  private nodes!: NodeSet;
  private network!: Network;
  private netParams: NetworkParams;
  private messages: PendingMessage[] = [];
  private timers: PendingTimer[] = [];
  private clients: PendingClient[] = [];
  private nextId = 1;
  private nextRequestId = 1;
  private log: TraceEntry[] = [];
  private recorded: string[] = [];
  private now = 0;
  private steps = 0;
  private engines: SyncEngine[];
  /** durability log: each node's disk, the records its persists wrote (kept across a crash) */
  private disks: string[][] = [];

  constructor(
    private readonly spec: StepSessionSpec,
    provide: EngineProvider,
  ) {
    const names = spec.cluster.engines;
    if (!Array.isArray(names) || names.length < 1 || names.length > 15)
      throw new StepError(`cluster.engines must list 1..15 engines`);
    this.engines = names.map((n) => provide(n));
    this.netParams = networkParams(spec.network);
    this.reset();
  }

  private get durable(): boolean {
    return this.spec.cluster.durability === 'log';
  }

  get time_us(): number {
    return this.now;
  }

  get steps_taken(): number {
    return this.steps;
  }

  private reset(): void {
    this.nodes?.close();
    this.nodes = new NodeSet(this.engines, {
      seed: this.spec.cluster.seed,
      commit_interval_us: this.spec.cluster.commit_interval_us,
      ...(this.spec.cluster.check_quorum !== undefined && { check_quorum: this.spec.cluster.check_quorum }),
      ...(this.durable && { durability: 'log' as const }),
      ...(this.spec.cluster.repair_batch && { repair_batch: this.spec.cluster.repair_batch }),
      trace: true,
    });
    this.network = new Network(this.netParams, new Prng(this.spec.cluster.seed, STREAM_NETWORK));
    this.messages = [];
    this.timers = [];
    this.clients = [];
    this.nextId = 1;
    this.nextRequestId = 1;
    this.log = [];
    this.recorded = [];
    this.now = 0;
    this.steps = 0;
    this.disks = this.engines.map(() => []);
    for (let id = 0; id < this.nodes.size; id++) this.boot(id, `n${id} booted`);
  }

  // --- what can happen next ---

  pending(): PendingItem[] {
    const items: PendingItem[] = [
      ...this.messages.map((m) => ({ kind: 'message' as const, id: m.id, from: m.from, to: m.to, type: m.type, due_us: m.due_us, json: m.json })),
      ...this.timers.map((t) => ({ kind: 'timer' as const, id: t.id, node: t.node, timer: t.timer, due_us: t.due_us })),
      ...this.clients.map((c) => ({ kind: 'client' as const, id: c.id, node: c.node, line: c.line, due_us: c.due_us })),
    ];
    return items.sort((a, b) => a.due_us - b.due_us || a.id - b.id);
  }

  next(): TraceEntry | null {
    const first = this.pending()[0];
    if (!first) return null;
    switch (first.kind) {
      case 'message':
        return this.deliver(first.id);
      case 'timer':
        return this.fireDue(first.id);
      case 'client':
        return this.deliverClient(first.id);
    }
  }

  /** Delivers a pending message, or a pending client command (both are "deliver" in the UI). */
  deliver(message_id: number): TraceEntry | null {
    if (this.clients.some((c) => c.id === message_id)) return this.deliverClient(message_id);
    const m = this.take(this.messages, message_id, 'message');
    this.recorded.push(`deliver ${message_id}`);
    this.now = Math.max(this.now, m.due_us);
    const why = !this.nodes.isUp(m.to) ? `n${m.to} is down` : this.network.isCut(m.from, m.to) ? `link ${m.from}->${m.to} is cut` : null;
    if (why) {
      this.noteOnly(m.to, `m${m.id} ${m.from}->${m.to} ${m.type} lost (${why})`);
      return null;
    }
    return this.step(m.to, messageEvent(m.json), [`m${m.id} ${m.from}->${m.to} ${m.type} delivered`]);
  }

  drop(message_id: number): void {
    const m = this.take(this.messages, message_id, 'message');
    this.recorded.push(`drop ${message_id}`);
    this.noteOnly(m.to, `m${m.id} ${m.from}->${m.to} ${m.type} dropped`);
  }

  duplicate(message_id: number): void {
    const m = this.messages.find((x) => x.id === message_id);
    if (!m) throw new StepError(`no pending message m${message_id}`);
    this.recorded.push(`dup ${message_id}`);
    const copy = { ...m, id: this.nextId++ };
    this.messages.push(copy);
    this.noteOnly(m.to, `m${m.id} duplicated as m${copy.id}`);
  }

  /** Fires an armed timer now (early if its due time has not come: that is the student's choice). */
  fire(timer_id: number): TraceEntry {
    const t = this.take(this.timers, timer_id, 'timer');
    this.recorded.push(`fire ${timer_id}`);
    return this.step(t.node, timerEvent(t.timer), [`timer ${t.timer} of n${t.node} fired`])!;
  }

  /** Fires a timer at its due time (what next() does): time advances to it. */
  private fireDue(timer_id: number): TraceEntry {
    const t = this.take(this.timers, timer_id, 'timer');
    this.recorded.push(`timer ${timer_id}`);
    this.now = Math.max(this.now, t.due_us);
    return this.step(t.node, timerEvent(t.timer), [`timer ${t.timer} of n${t.node} fired`])!;
  }

  client(node: number, line: string): number {
    this.checkNode(node);
    if (typeof line !== 'string' || line.length > 70_000) throw new StepError('a client line is a string of at most 70000 characters');
    this.recorded.push(`client ${node} ${line}`);
    const c = { id: this.nextId++, node, line, due_us: this.now + this.netParams.one_way_latency_us, request_id: this.nextRequestId++ };
    this.clients.push(c);
    return c.id;
  }

  private deliverClient(id: number): TraceEntry | null {
    const c = this.take(this.clients, id, 'client command');
    this.recorded.push(`deliver ${id}`);
    this.now = Math.max(this.now, c.due_us);
    if (!this.nodes.isUp(c.node)) {
      this.noteOnly(c.node, `client command to n${c.node} lost (n${c.node} is down)`);
      return null;
    }
    return this.step(c.node, clientEvent(STEP_CLIENT_ID, c.request_id, c.line), [`client command "${c.line}" arrived`]);
  }

  crash(node: number): void {
    this.checkNode(node);
    if (!this.nodes.isUp(node)) throw new StepError(`n${node} is already down`);
    this.recorded.push(`crash ${node}`);
    this.nodes.crash(node);
    this.timers = this.timers.filter((t) => t.node !== node);
    this.noteOnly(node, `n${node} crashed`);
  }

  restart(node: number): void {
    this.checkNode(node);
    if (this.nodes.isUp(node)) throw new StepError(`n${node} is up`);
    this.recorded.push(`restart ${node}`);
    if (!this.durable) return this.boot(node, `n${node} restarted (empty: durability none keeps nothing on disk)`);
    const records = this.disks[node]!;
    this.nodes.boot(node);
    this.step(node, `{"type":"restart","records":[${records.join(',')}]}`, [`n${node} restarted from its disk (${records.length} record${records.length === 1 ? '' : 's'})`]);
  }

  restartWiped(node: number): void {
    this.checkNode(node);
    if (this.nodes.isUp(node)) throw new StepError(`n${node} is up`);
    this.recorded.push(`wipe ${node}`);
    this.disks[node] = [];
    this.boot(node, `n${node} restarted with its disk wiped (empty)`);
  }

  disk(node: number): string[] {
    this.checkNode(node);
    return this.disks[node]!.slice();
  }

  cut(from: number, to: number): void {
    this.checkNode(from);
    this.checkNode(to);
    if (from === to) throw new StepError('a link joins two different nodes');
    this.recorded.push(`cut ${from} ${to}`);
    this.network.cutLink(from, to);
    this.noteOnly(from, `link ${from}->${to} cut`);
  }

  heal(): void {
    this.recorded.push('heal');
    this.network.heal();
    this.noteOnly(0, 'all links healed');
  }

  run_until(t_us: number, max_steps = MAX_STEPS_PER_RUN): TraceEntry[] {
    if (!Number.isFinite(t_us)) throw new StepError(`run_until needs a finite time: ${t_us}`);
    const out: TraceEntry[] = [];
    for (let i = 0; i < max_steps; i++) {
      const first = this.pending()[0];
      if (!first || first.due_us > t_us) break;
      const e = this.next();
      if (e) out.push(e);
    }
    if (this.now < t_us && (this.pending()[0]?.due_us ?? Infinity) > t_us) {
      this.recorded.push(`until ${t_us}`);
      this.now = t_us;
    }
    return out;
  }

  run_until_quiet(max_steps = MAX_STEPS_PER_RUN): TraceEntry[] {
    const out: TraceEntry[] = [];
    for (let i = 0; i < max_steps; i++) {
      const first = this.pending().find((p) => p.kind !== 'timer');
      if (!first) break;
      const e = this.next();
      if (e) out.push(e);
    }
    return out;
  }

  inspect(node: number): string {
    this.checkNode(node);
    return this.nodes.isUp(node) ? this.nodes.get(node).inspect() : 'null';
  }

  trace(): TraceEntry[] {
    return this.log.slice();
  }

  choices(): string[] {
    return this.recorded.slice();
  }

  rewind(to_step: number): void {
    if (!Number.isInteger(to_step) || to_step < 0) throw new StepError(`rewind needs a step number: ${to_step}`);
    const replay = this.recorded.slice();
    this.reset();
    for (const choice of replay) {
      if (this.steps >= to_step) break;
      this.apply(choice);
    }
  }

  /** Rebuilds a session from recorded choices (e.g. from a URL). */
  replay(choices: string[]): void {
    this.reset();
    for (const c of choices) this.apply(c);
  }

  private apply(choice: string): void {
    const [verb, a, b] = choice.split(' ');
    const num = (s: string | undefined) => {
      const n = Number(s);
      if (!Number.isInteger(n)) throw new StepError(`bad choice "${choice}"`);
      return n;
    };
    switch (verb) {
      case 'deliver':
        this.deliver(num(a));
        return;
      case 'drop': return this.drop(num(a));
      case 'dup': return this.duplicate(num(a));
      case 'fire': this.fire(num(a)); return;
      case 'timer': this.fireDue(num(a)); return;
      case 'client': {
        const node = num(a);
        this.client(node, choice.slice(`client ${a} `.length));
        return;
      }
      case 'crash': return this.crash(num(a));
      case 'restart': return this.restart(num(a));
      case 'wipe': return this.restartWiped(num(a));
      case 'cut': return this.cut(num(a), num(b));
      case 'heal': return this.heal();
      case 'until': {
        const t = Number(a);
        this.recorded.push(choice);
        this.now = Math.max(this.now, t);
        return;
      }
      default:
        throw new StepError(`unknown choice "${choice}"`);
    }
  }

  // --- feeding the cores ---

  private boot(id: number, note: string): void {
    this.nodes.boot(id);
    this.step(id, START_EVENT, [note]);
  }

  private step(node: number, event: string, notes: string[]): TraceEntry {
    const effects = this.nodes.get(node).step(event);
    this.steps++;
    let persisted: number | null = null;
    for (const line of splitLines(effects)) {
      const e = parseEffect(line);
      if (e.kind === 'persist') {
        // The step session's disk is instant: the batch is written now, and the core hears so in
        // the next step (which releases whatever it held behind the batch).
        this.disks[node]!.push(...persistRecords(line));
        persisted = e.persist_id;
      } else if (e.kind === 'send') {
        if (this.network.isCut(node, e.to)) {
          notes.push(`a ${e.type} to n${e.to} was lost (link ${node}->${e.to} is cut)`);
          continue;
        }
        const due = this.network.arrival(node, e.to, e.json.length, this.now);
        this.messages.push({ id: this.nextId++, from: node, to: e.to, type: e.type, due_us: due, json: e.json });
      } else if (e.kind === 'set_timer') {
        this.timers = this.timers.filter((t) => !(t.node === node && t.timer === e.timer));
        this.timers.push({ id: this.nextId++, node, timer: e.timer, due_us: this.now + e.delay_us });
      } else if (e.kind === 'cancel_timer') {
        this.timers = this.timers.filter((t) => !(t.node === node && t.timer === e.timer));
      }
    }
    const entry: TraceEntry = { step: this.steps, t_us: this.now, node, event, effects, notes };
    this.log.push(entry);
    if (persisted !== null) this.step(node, `{"type":"persisted","persist_id":${persisted}}`, [`n${node}'s disk wrote persist ${persisted}`]);
    return entry;
  }

  /** A simulator action that fed no event to a core (a drop, a cut, a crash…): an entry with an
   * empty event, numbered like the step before it. */
  private noteOnly(node: number, note: string): void {
    this.log.push({ step: this.steps, t_us: this.now, node, event: '', effects: '', notes: [note] });
  }

  private take<T extends { id: number }>(list: T[], id: number, what: string): T {
    const i = list.findIndex((x) => x.id === id);
    if (i < 0) throw new StepError(`no pending ${what} with id ${id}`);
    return list.splice(i, 1)[0]!;
  }

  private checkNode(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.nodes.size) throw new StepError(`no node n${node}`);
  }
}

/** The records of a persist effect, each as canonical JSON (the core wrote them so). */
function persistRecords(line: string): string[] {
  const e = JSON.parse(line) as { records?: unknown[] };
  return Array.isArray(e.records) ? e.records.map((r) => JSON.stringify(r)) : [];
}

function networkParams(spec: NetworkSpec | undefined): NetworkParams {
  const d = defaultNetwork();
  return {
    one_way_latency_us: spec?.one_way_latency_us ?? d.one_way_latency_us,
    jitter_us: spec?.jitter_us ?? d.jitter_us,
    bandwidth_gbps: spec?.bandwidth_gbps ?? d.bandwidth_gbps,
  };
}
