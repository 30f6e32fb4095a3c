// The scripted cluster the transcripts and the differential test drive: N nodes of one
// engine, a network whose every in-flight message can be delivered, dropped, duplicated or
// reordered on command, armed timers fired on command, links cut and healed, nodes crashed
// and restarted. It has no clock: nothing happens unless a command says so.
import type { AsyncEngine, AsyncNode, NodeConfig } from '../../loader/engine.ts';

export interface PendingMessage {
  id: number;
  from: number;
  to: number;
  type: string;
  /** The message exactly as the sender's core wrote it. */
  json: string;
}

export interface ClusterOptions {
  numNodes: number;
  seed: number;
  commitIntervalUs?: number;
  acceptTimeoutTicks?: number;
  maxPendingAccepts?: number;
  trace?: boolean;
  checkQuorum?: boolean;
  repairBatch?: number;
  electionBatch?: number;
  durability?: 'none' | 'log';
  /** Durability log: a checkpoint every this many executed instances (docs/protocol.md, "Compaction"). */
  snapshotEvery?: number;
  /** Durability log: complete each persist as soon as it is asked for (default), or only on `persist`. */
  manualPersist?: boolean;
  /** GC mitigation (docs/protocol.md): `none` (default), `blade`, `mitmem` or `both`. */
  mitigation?: 'none' | 'blade' | 'mitmem' | 'both';
  mitmemDeadlineUs?: number;
}

const CHECKPOINT_PREFIX = '{"kind":"checkpoint",';

/** A persist a node asked for that the harness's disk has not completed yet. */
interface PendingPersist {
  id: number;
  /** Each record exactly as the core wrote it. */
  records: string[];
}

/** A message filter for deliver / drop: any of id, from, to, type. */
export interface MessageFilter {
  id?: number;
  from?: number;
  to?: number;
  type?: string;
}

const SEND_PREFIX = '{"type":"send","msg":';
const PERSIST_PREFIX = '{"type":"persist",';
const TIMER_NAMES = ['election', 'commit'] as const;
export type TimerName = (typeof TIMER_NAMES)[number];

/** Seeds of restarted nodes step by this much per incarnation. */
export const SEED_STRIDE_PER_INCARNATION = 16;

export class HarnessError extends Error {}

export class Cluster {
  readonly nodes: (AsyncNode | null)[] = [];
  readonly incarnations: number[] = [];
  /** Per node: armed timer name → delay in µs (as the core asked). */
  readonly timers: Map<TimerName, number>[] = [];
  /** Per node: the records its completed persists wrote (the disk survives a crash). */
  readonly disks: string[][] = [];
  /** Per node: persists asked for and not yet on disk (lost in a crash). */
  readonly unpersisted: PendingPersist[][] = [];
  pending: PendingMessage[] = [];
  /** Nodes told to collect (a `collect` effect) that have not been given `gc_done` yet. */
  readonly collecting = new Set<number>();
  private readonly cutLinks = new Set<string>();
  private nextMessageId = 1;
  /** Output lines of the command being run. */
  out: string[] = [];

  private constructor(
    private readonly engine: AsyncEngine,
    readonly options: ClusterOptions,
  ) {}

  static async create(engine: AsyncEngine, options: ClusterOptions): Promise<Cluster> {
    const c = new Cluster(engine, options);
    for (let id = 0; id < options.numNodes; id++) {
      c.nodes.push(null);
      c.incarnations.push(-1);
      c.timers.push(new Map());
      c.disks.push([]);
      c.unpersisted.push([]);
    }
    for (let id = 0; id < options.numNodes; id++) await c.boot(id);
    return c;
  }

  get size(): number {
    return this.options.numNodes;
  }

  config(id: number): NodeConfig {
    const o = this.options;
    const cfg: NodeConfig = {
      id,
      num_peers: o.numNodes,
      seed: o.seed + id + SEED_STRIDE_PER_INCARNATION * this.incarnations[id]!,
    };
    if (o.commitIntervalUs !== undefined) cfg.commit_interval_us = o.commitIntervalUs;
    if (o.acceptTimeoutTicks !== undefined) cfg.accept_timeout_ticks = o.acceptTimeoutTicks;
    if (o.maxPendingAccepts !== undefined) cfg.max_pending_accepts = o.maxPendingAccepts;
    if (o.trace !== undefined) cfg.trace = o.trace;
    if (o.checkQuorum !== undefined) cfg.check_quorum = o.checkQuorum;
    if (o.repairBatch !== undefined) cfg.repair_batch = o.repairBatch;
    if (o.electionBatch !== undefined) cfg.election_batch = o.electionBatch;
    if (o.durability !== undefined) cfg.durability = o.durability;
    if (o.snapshotEvery !== undefined) cfg.snapshot_every = o.snapshotEvery;
    if (o.mitigation !== undefined) cfg.mitigation = o.mitigation;
    if (o.mitmemDeadlineUs !== undefined) cfg.mitmem_deadline_us = o.mitmemDeadlineUs;
    return cfg;
  }

  /** Takes the output collected since the last call. */
  take(): string[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private get durable(): boolean {
    return this.options.durability === 'log';
  }

  private async boot(id: number, firstEvent?: string): Promise<void> {
    this.incarnations[id]!++;
    this.nodes[id] = await this.engine.createNode(this.config(id));
    if (firstEvent !== undefined) {
      await this.step(id, firstEvent);
    } else if (this.durable && this.incarnations[id]! > 0) {
      await this.step(id, `{"type":"restart","records":[${this.disks[id]!.join(',')}]}`);
    } else {
      await this.step(id, '{"type":"start"}');
    }
  }

  private node(id: number): AsyncNode {
    if (!Number.isInteger(id) || id < 0 || id >= this.size) throw new HarnessError(`no node n${id}`);
    const n = this.nodes[id];
    if (!n) throw new HarnessError(`n${id} is down`);
    return n;
  }

  isUp(id: number): boolean {
    return this.nodes[id] != null;
  }

  isCut(from: number, to: number): boolean {
    return this.cutLinks.has(`${from}>${to}`);
  }

  /** Feeds one event to a node and records (and acts on) its effects. */
  async step(id: number, eventJson: string): Promise<string[]> {
    const effects = await this.node(id).step(eventJson);
    const lines = effects === '' ? [] : effects.slice(0, -1).split('\n');
    for (const line of lines) this.onEffect(id, line);
    if (!this.options.manualPersist) while (this.unpersisted[id]!.length > 0) await this.completePersist(id);
    return lines;
  }

  /** Writes a node's oldest outstanding persist to its disk and tells the node. */
  async completePersist(id: number): Promise<void> {
    this.node(id);
    const p = this.unpersisted[id]!.shift();
    if (!p) throw new HarnessError(`n${id} has no persist outstanding`);
    // A batch that starts with a checkpoint supersedes everything written before it: the disk
    // is compacted to it, as the native servers do (docs/protocol.md, "Compaction").
    if (p.records[0]?.startsWith(CHECKPOINT_PREFIX)) this.disks[id] = [];
    this.disks[id]!.push(...p.records);
    this.out.push(`n${id}: persisted ${p.id}`);
    await this.step(id, `{"type":"persisted","persist_id":${p.id}}`);
  }

  private onEffect(id: number, line: string): void {
    if (line.startsWith(PERSIST_PREFIX)) {
      const effect = JSON.parse(line) as { persist_id: number; records: unknown[] };
      // JSON.stringify gives back the canonical bytes: field order is kept, and every
      // string is printable ASCII, which it escapes exactly as the cores do.
      this.unpersisted[id]!.push({ id: effect.persist_id, records: effect.records.map((r) => JSON.stringify(r)) });
      this.out.push(`n${id}: ${line}`);
      return;
    }
    if (line.startsWith(SEND_PREFIX)) {
      const json = line.slice(SEND_PREFIX.length, -1);
      const msg = JSON.parse(json) as { type: string; from: number; to: number };
      if (this.isCut(id, msg.to)) {
        this.out.push(`n${id}: ${line} lost (link ${id}->${msg.to} is cut)`);
        return;
      }
      const m: PendingMessage = { id: this.nextMessageId++, from: id, to: msg.to, type: msg.type, json };
      this.pending.push(m);
      this.out.push(`n${id}: ${line} m${m.id}`);
      return;
    }
    this.out.push(`n${id}: ${line}`);
    const effect = JSON.parse(line) as { type: string; timer?: TimerName; delay_us?: number };
    if (effect.type === 'set_timer') this.timers[id]!.set(effect.timer!, effect.delay_us!);
    else if (effect.type === 'cancel_timer') this.timers[id]!.delete(effect.timer!);
    else if (effect.type === 'collect') this.collecting.add(id);
  }

  // --- the network ---

  matching(f: MessageFilter): PendingMessage[] {
    return this.pending.filter(
      (m) =>
        (f.id === undefined || m.id === f.id) &&
        (f.from === undefined || m.from === f.from) &&
        (f.to === undefined || m.to === f.to) &&
        (f.type === undefined || m.type === f.type),
    );
  }

  private take1(f: MessageFilter): PendingMessage {
    const m = this.matching(f)[0];
    if (!m) throw new HarnessError('no pending message matches');
    this.pending = this.pending.filter((p) => p !== m);
    return m;
  }

  /** Delivers the oldest pending message matching f. */
  async deliver(f: MessageFilter = {}): Promise<void> {
    const m = this.take1(f);
    const head = `m${m.id}: ${m.from}->${m.to} ${m.type}`;
    if (!this.isUp(m.to)) {
      this.out.push(`${head} lost (n${m.to} is down)`);
      return;
    }
    if (this.isCut(m.from, m.to)) {
      this.out.push(`${head} lost (link ${m.from}->${m.to} is cut)`);
      return;
    }
    this.out.push(head);
    await this.step(m.to, `{"type":"message","msg":${m.json}}`);
  }

  /** Delivers matching messages, oldest first, including those sent meanwhile. */
  async deliverAll(f: MessageFilter = {}, limit = 10_000): Promise<number> {
    let count = 0;
    while (this.matching(f).length > 0) {
      if (++count > limit) throw new HarnessError(`still delivering after ${limit} messages`);
      await this.deliver(f);
    }
    return count;
  }

  drop(f: MessageFilter = {}): void {
    const m = this.take1(f);
    this.out.push(`m${m.id}: ${m.from}->${m.to} ${m.type} dropped`);
  }

  duplicate(f: MessageFilter = {}): void {
    const m = this.matching(f)[0];
    if (!m) throw new HarnessError('no pending message matches');
    const copy = { ...m, id: this.nextMessageId++ };
    this.pending.push(copy);
    this.out.push(`m${m.id}: duplicated as m${copy.id}`);
  }

  /** Delivers raw bytes to a node as if a peer had sent them (bad input tests). */
  async deliverRaw(to: number, eventJson: string): Promise<void> {
    this.out.push(`raw -> n${to}`);
    await this.step(to, eventJson);
  }

  cut(from: number, to: number): void {
    this.cutLinks.add(`${from}>${to}`);
    this.out.push(`link ${from}->${to} cut`);
  }

  heal(): void {
    this.cutLinks.clear();
    this.out.push('all links healed');
  }

  // --- timers, clients, faults ---

  async fire(id: number, timer: TimerName): Promise<void> {
    this.node(id);
    if (!this.timers[id]!.has(timer)) throw new HarnessError(`timer ${timer} of n${id} is not armed`);
    this.timers[id]!.delete(timer);
    this.out.push(`n${id}: fire ${timer}`);
    await this.step(id, JSON.stringify({ type: 'timer', timer }));
  }

  async client(id: number, clientId: number, requestId: number, line: string): Promise<void> {
    this.node(id);
    await this.step(id, JSON.stringify({ type: 'client', client_id: clientId, request_id: requestId, line }));
  }

  /** The node's runtime announces a collection with its predicted pause. */
  async gcPending(id: number, pauseUs: number): Promise<void> {
    this.node(id);
    this.out.push(`n${id}: gc pending ${pauseUs} us`);
    await this.step(id, JSON.stringify({ type: 'gc_pending', pause_us: pauseUs }));
  }

  /** The collection the node was told to run has ended. */
  async gcDone(id: number): Promise<void> {
    this.node(id);
    this.collecting.delete(id);
    this.out.push(`n${id}: gc done`);
    await this.step(id, '{"type":"gc_done"}');
  }

  async crash(id: number): Promise<void> {
    const n = this.node(id);
    this.nodes[id] = null;
    this.collecting.delete(id);
    this.timers[id]!.clear();
    const lost = this.unpersisted[id]!.length;
    this.unpersisted[id] = [];
    await n.destroy();
    this.out.push(lost ? `n${id}: crashed (${lost} persist(s) not on disk lost)` : `n${id}: crashed`);
  }

  /**
   * Boots a crashed node: from its disk in durability log, or `wiped` from nothing; with
   * `event`, the new node's first event is those bytes instead (bad-record tests).
   */
  async restart(id: number, wiped = false, event?: string): Promise<void> {
    if (this.isUp(id)) throw new HarnessError(`n${id} is up`);
    if (wiped) this.disks[id] = [];
    this.out.push(wiped ? `n${id}: restarted wiped` : `n${id}: restarted`);
    await this.boot(id, event);
  }

  async inspect(id: number): Promise<string> {
    return this.node(id).inspect();
  }

  describePending(): string[] {
    const lines = this.pending.map((m) => `m${m.id}: ${m.from}->${m.to} ${m.type}`);
    this.timers.forEach((t, id) => {
      for (const name of TIMER_NAMES) if (t.has(name)) lines.push(`n${id}: timer ${name} ${t.get(name)}us`);
    });
    return lines.length ? lines : ['(nothing pending)'];
  }

  async close(): Promise<void> {
    for (let id = 0; id < this.size; id++) {
      const n = this.nodes[id];
      this.nodes[id] = null;
      if (n) await n.destroy();
    }
  }
}
