// Step mode: the real engines driven one event at a time by a student or a lesson. There is no
// CPU or GC model here (pure protocol): the scripted cluster (@replicant/engines/scripted) holds
// the nodes, the messages in flight and the armed timers, as it does for the transcripts; this
// session adds a clock on top. The network model gives each message its due time, timers are due
// when the cores asked. Every state change is a recorded choice, so a session is rebuilt exactly
// from (spec, choices) — that is what rewind does.
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { HarnessError, ScriptedCluster, START_EVENT, type ClusterObserver, type PendingMessage, type TimerName } from '@replicant/engines/scripted';
import type { EngineProvider, NetworkSpec, PendingItem, StepSession, StepSessionSpec, TraceEntry } from '../api.ts';
import { Prng } from '../core/prng.ts';
import { Network, type NetworkParams } from '../net/network.ts';
import { STREAM_NETWORK } from '../core/streams.ts';
import { defaultNetwork } from '../models/card.ts';

export type { EngineProvider };

/** The client id step-mode commands carry (one client; request ids count its commands). */
export const STEP_CLIENT_ID = 1;
const MAX_STEPS_PER_RUN = 100_000;

interface PendingTimer { id: number; node: number; timer: TimerName; due_us: number }
interface PendingClient { id: number; node: number; line: string; due_us: number; request_id: number }

export class StepError extends Error {}

export function createStepSession(spec: StepSessionSpec, provide: EngineProvider): StepSession {
  return new Session(spec, provide);
}

class Session implements StepSession {
  private cluster!: ScriptedCluster;
  private network!: Network;
  private netParams: NetworkParams;
  /** When each message in the cluster's network arrives. */
  private due = new Map<number, number>();
  private timers: PendingTimer[] = [];
  private clients: PendingClient[] = [];
  /** One numbering for messages, timers and client commands (the cluster draws its message ids here). */
  private nextId = 1;
  private nextRequestId = 1;
  private log: TraceEntry[] = [];
  private recorded: string[] = [];
  private now = 0;
  private steps = 0;
  /** Notes for the next step the cluster takes, and the first entry the running command made. */
  private notes: string[] = [];
  private firstEntry: TraceEntry | null = null;
  private engines: SyncEngine[];

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

  /** What the session hears from the cluster while a command runs. */
  private readonly observer: ClusterObserver = {
    sent: (m) => this.due.set(m.id, this.network.arrival(m.from, m.to, m.json.length, this.now)),
    lostOnCut: (from, to, type) => this.notes.push(`a ${type} to n${to} was lost (link ${from}->${to} is cut)`),
    timerSet: (node, timer, delay_us) => {
      this.timers = this.timers.filter((t) => !(t.node === node && t.timer === timer));
      this.timers.push({ id: this.nextId++, node, timer, due_us: this.now + delay_us });
    },
    timerCancelled: (node, timer) => {
      this.timers = this.timers.filter((t) => !(t.node === node && t.timer === timer));
    },
    // The step session's disk is instant: a persist is written right after the step that asked
    // for it, and the core hears so in the next step (which releases whatever it held behind it).
    persisting: (node, persist_id) => {
      this.notes = [`n${node}'s disk wrote persist ${persist_id}`];
    },
    stepped: (node, event, effects) => {
      this.steps++;
      const entry: TraceEntry = { step: this.steps, t_us: this.now, node, event, effects, notes: this.notes };
      this.notes = [];
      this.log.push(entry);
      this.firstEntry ??= entry;
    },
  };

  private reset(): void {
    this.cluster?.close();
    this.nextId = 1;
    try {
      this.cluster = new ScriptedCluster(
        this.engines,
        {
          num_nodes: this.engines.length,
          seed: this.spec.cluster.seed,
          commit_interval_us: this.spec.cluster.commit_interval_us,
          ...(this.spec.cluster.check_quorum !== undefined && { check_quorum: this.spec.cluster.check_quorum }),
          ...(this.durable && { durability: 'log' as const }),
          ...(this.spec.cluster.repair_batch && { repair_batch: this.spec.cluster.repair_batch }),
          trace: true,
          log: false,
          next_id: () => this.nextId++,
        },
        this.observer,
      );
    } catch (err) {
      throw err instanceof HarnessError ? new StepError(err.message) : err;
    }
    this.network = new Network(this.netParams, new Prng(this.spec.cluster.seed, STREAM_NETWORK));
    this.due = new Map();
    this.timers = [];
    this.clients = [];
    this.nextRequestId = 1;
    this.log = [];
    this.recorded = [];
    this.now = 0;
    this.steps = 0;
    for (let id = 0; id < this.cluster.size; id++) this.stepWith([`n${id} booted`], () => this.cluster.boot(id));
  }

  // --- what can happen next ---

  pending(): PendingItem[] {
    const items: PendingItem[] = [
      ...this.cluster.core.pending.map((m) => ({ kind: 'message' as const, id: m.id, from: m.from, to: m.to, type: m.type, due_us: this.due.get(m.id)!, json: m.json })),
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
    const m = this.message(message_id);
    this.recorded.push(`deliver ${message_id}`);
    this.now = Math.max(this.now, this.due.get(m.id)!);
    this.due.delete(m.id);
    const { lost } = this.stepWith([`m${m.id} ${m.from}->${m.to} ${m.type} delivered`], () => this.cluster.deliver({ id: m.id }));
    if (lost !== null) {
      this.noteOnly(m.to, `m${m.id} ${m.from}->${m.to} ${m.type} lost (${lost})`);
      return null;
    }
    return this.firstEntry;
  }

  drop(message_id: number): void {
    const m = this.message(message_id);
    this.recorded.push(`drop ${message_id}`);
    this.cluster.drop({ id: m.id });
    this.due.delete(m.id);
    this.noteOnly(m.to, `m${m.id} ${m.from}->${m.to} ${m.type} dropped`);
  }

  duplicate(message_id: number): void {
    const m = this.message(message_id);
    this.recorded.push(`dup ${message_id}`);
    const copy = this.cluster.duplicate({ id: m.id });
    this.due.set(copy.id, this.due.get(m.id)!);
    this.noteOnly(m.to, `m${m.id} duplicated as m${copy.id}`);
  }

  /** Fires an armed timer now (early if its due time has not come: that is the student's choice). */
  fire(timer_id: number): TraceEntry {
    const t = this.take(this.timers, timer_id, 'timer');
    this.recorded.push(`fire ${timer_id}`);
    return this.fireNow(t);
  }

  /** Fires a timer at its due time (what next() does): time advances to it. */
  private fireDue(timer_id: number): TraceEntry {
    const t = this.take(this.timers, timer_id, 'timer');
    this.recorded.push(`timer ${timer_id}`);
    this.now = Math.max(this.now, t.due_us);
    return this.fireNow(t);
  }

  private fireNow(t: PendingTimer): TraceEntry {
    this.stepWith([`timer ${t.timer} of n${t.node} fired`], () => this.cluster.fire(t.node, t.timer));
    return this.firstEntry!;
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
    if (!this.cluster.isUp(c.node)) {
      this.noteOnly(c.node, `client command to n${c.node} lost (n${c.node} is down)`);
      return null;
    }
    this.stepWith([`client command "${c.line}" arrived`], () => this.cluster.client(c.node, STEP_CLIENT_ID, c.request_id, c.line));
    return this.firstEntry;
  }

  crash(node: number): void {
    this.checkNode(node);
    if (!this.cluster.isUp(node)) throw new StepError(`n${node} is already down`);
    this.recorded.push(`crash ${node}`);
    this.cluster.crash(node);
    this.timers = this.timers.filter((t) => t.node !== node);
    this.noteOnly(node, `n${node} crashed`);
  }

  restart(node: number): void {
    this.checkNode(node);
    if (this.cluster.isUp(node)) throw new StepError(`n${node} is up`);
    this.recorded.push(`restart ${node}`);
    if (!this.durable) {
      this.stepWith([`n${node} restarted (empty: durability none keeps nothing on disk)`], () => this.cluster.restart(node));
      return;
    }
    const records = this.cluster.core.disks[node]!.length;
    this.stepWith([`n${node} restarted from its disk (${records} record${records === 1 ? '' : 's'})`], () => this.cluster.restart(node));
  }

  restartWiped(node: number): void {
    this.checkNode(node);
    if (this.cluster.isUp(node)) throw new StepError(`n${node} is up`);
    this.recorded.push(`wipe ${node}`);
    // a wiped node starts as a new one: `start`, not a `restart` with no records
    this.stepWith([`n${node} restarted with its disk wiped (empty)`], () => this.cluster.restart(node, true, START_EVENT));
  }

  disk(node: number): string[] {
    this.checkNode(node);
    return this.cluster.core.disks[node]!.slice();
  }

  cut(from: number, to: number): void {
    this.checkNode(from);
    this.checkNode(to);
    if (from === to) throw new StepError('a link joins two different nodes');
    this.recorded.push(`cut ${from} ${to}`);
    this.cluster.cut(from, to);
    this.noteOnly(from, `link ${from}->${to} cut`);
  }

  heal(): void {
    this.recorded.push('heal');
    this.cluster.heal();
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
    return this.cluster.isUp(node) ? this.cluster.inspect(node) : 'null';
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

  /** Runs a cluster command whose first step carries these notes. */
  private stepWith<T>(notes: string[], command: () => T): T {
    this.notes = notes;
    this.firstEntry = null;
    try {
      return command();
    } finally {
      this.notes = [];
    }
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

  private message(id: number): PendingMessage {
    const m = this.cluster.core.pending.find((x) => x.id === id);
    if (!m) throw new StepError(`no pending message with id ${id}`);
    return m;
  }

  private checkNode(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.cluster.size) throw new StepError(`no node n${node}`);
  }
}

function networkParams(spec: NetworkSpec | undefined): NetworkParams {
  const d = defaultNetwork();
  return {
    one_way_latency_us: spec?.one_way_latency_us ?? d.one_way_latency_us,
    jitter_us: spec?.jitter_us ?? d.jitter_us,
    bandwidth_gbps: spec?.bandwidth_gbps ?? d.bandwidth_gbps,
  };
}
