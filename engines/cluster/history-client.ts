// A client that records a linearizability history (the Porcupine checker's format) while it
// runs operations against a native cluster: one request in flight, `leader is N` followed by the
// next operation, and a write that some server may hold (one answered `leader is` or `retry`)
// never sent again (a second copy could take effect after a later write), so its outcome stays
// unknown. Used by the nemesis and the cluster tests.
import { LineSocket, neverSent } from './line-socket.ts';
import type { HistoryOp } from '@replicant/checker/lincheck';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface HistoryClientOptions {
  /** Client addresses of the nodes, by id. */
  addresses: readonly string[];
  /** Every operation is pushed here when it is called, and completed in place. */
  history: HistoryOp[];
  /** The history's clock (µs). */
  nowUs: () => number;
  /** This client's first id in the history. */
  client: number;
  /** After an operation of unknown outcome the client continues under id + idStride (Porcupine
   * needs one operation at a time per client, and an unknown one never ends). */
  idStride: number;
  /** The node asked first. */
  target: number;
  requestTimeoutMs: number;
}

export class HistoryClient {
  private readonly conns = new Map<number, LineSocket>();
  /** The node this client asks next (the last one that answered, or the one it was sent to). */
  target: number;
  /** The client id the next operation is recorded under. */
  proc: number;

  constructor(private readonly o: HistoryClientOptions) {
    this.target = o.target;
    this.proc = o.client;
  }

  private conn(id: number): LineSocket {
    let k = this.conns.get(id);
    if (!k || k.dead) {
      k = new LineSocket(this.o.addresses[id]!);
      this.conns.set(id, k);
    }
    return k;
  }

  /** Opens this client's connection to every node now, instead of on its first request there. */
  async connectEveryNode(): Promise<void> {
    await Promise.all(this.o.addresses.map((_, id) => this.conn(id).connected));
  }

  /** Runs one operation and records it; the operation, with result `unknown` if no reply said. */
  async run(kind: HistoryOp['op'], key: string, value?: string): Promise<HistoryOp> {
    const n = this.o.addresses.length;
    const op: HistoryOp = { client: this.proc, op: kind, key, call_us: this.o.nowUs(), result: 'unknown' };
    if (value !== undefined) op.value = value;
    this.o.history.push(op);
    const line = kind === 'put' ? `put ${key} ${value}` : `${kind} ${key}`;
    // Whether some server may hold this write: from then on it is not sent again (a second
    // copy could take effect later), and its outcome is unknown unless a reply says.
    let mayHold = false;
    for (let attempt = 0; ; attempt++) {
      const reply = await this.conn(this.target).request(line, this.o.requestTimeoutMs);
      if (reply instanceof Error) {
        this.target = (this.target + 1) % n;
        if (neverSent(reply) && !mayHold && attempt < 50) continue; // a killed node refused it
        break; // unknown
      }
      const redirect = /^leader is (\d+)$/.exec(reply);
      if (redirect || reply === 'retry') {
        if (redirect) this.target = Number(redirect[1]) % n;
        else await sleep(10);
        // Neither answer says the write was not proposed: a deposed leader answers the client
        // of every accept phase it still had open with `leader is` (docs/protocol.md,
        // become_follower step 4), and `retry` also comes from a leader that gives up on a
        // slot it proposes again. Such a write may already be on a majority and be replayed
        // by the next leader, so a second copy sent now could take effect twice (a del then
        // answers `key not found`: the Porcupine violations of docs/reliability.md). The
        // text of the reply cannot tell a follower's redirect on arrival from that case.
        if (kind !== 'get' || attempt > 50) break; // unknown
        if (reply === 'retry') mayHold = true;
        continue;
      }
      if (reply === 'bad command' || (kind === 'put' && reply !== '') || (kind === 'del' && reply !== '' && reply !== 'key not found'))
        throw new Error(`unexpected reply ${JSON.stringify(reply)} to "${line}"`);
      op.return_us = this.o.nowUs();
      op.result = reply === 'key not found' ? 'not_found' : 'ok';
      if (kind === 'get' && op.result === 'ok') op.value = reply;
      break;
    }
    if (op.result === 'unknown') this.proc += this.o.idStride;
    return op;
  }

  close(): void {
    for (const c of this.conns.values()) c.close();
    this.conns.clear();
  }
}

/** History client ids: worker w records as w, w + stride, … (a new id after each unknown
 * outcome), probe slot s as workers + s, …; distinct while workers + slots < stride. */
const ID_STRIDE = 1 << 10;

export interface HistoryLoadOptions {
  addresses: readonly string[];
  workers: number;
  /** The node every worker asks first. */
  startNode: number;
  /** Keys the workers share (gets and puts on them are what the checker has to order). */
  sharedKeys: number;
  /** Keys of its own each worker cycles through (default: a new key every write, so the store
   * grows with the run). A fixed set lets the store stop growing after the first round, which a
   * memory plateau needs; `acks` then keeps the newest acknowledged write of each key, which a
   * later write of unknown outcome may have replaced (so such a run reads back shared keys only). */
  ownKeys?: number;
  requestTimeoutMs?: number;
  /** Each worker connects to every node before its first operation, so the client connections
   * a node serves are there from the start: a worker whose request to the leader times out
   * asks the next node, and that node's first connection from it (a reader and a writer thread
   * in the Java server, ~0.2 MiB of RSS each) would otherwise arrive in the middle of a memory
   * run and read as growth (docs/reliability.md, "The Java node beside C++ and Rust"). */
  connectEveryNode?: boolean;
}

/**
 * Closed-loop load that records its history: each worker cycles through a put on a key of its
 * own (a write to read back at the end), a put on a shared key and a get of a shared key, one
 * request at a time. `acks` lists the acknowledged writes to the workers' own keys.
 */
export class HistoryLoad {
  readonly history: HistoryOp[] = [];
  readonly acks: { key: string; value: string; at: number }[] = [];
  /** Every acknowledged operation (any kind), with when its reply came (wall clock, ms). */
  readonly acknowledged: { at: number }[] = [];
  private running = true;
  private readonly clients: HistoryClient[] = [];
  private readonly done: Promise<void>;
  private readonly t0 = performance.now();
  readonly nowUs = () => Math.round((performance.now() - this.t0) * 1000);

  constructor(private readonly o: HistoryLoadOptions) {
    this.done = Promise.all(Array.from({ length: o.workers }, (_, w) => this.work(w))).then(() => {});
  }

  /** A client recording into this load's history under ids no worker uses. */
  client(slot: number, target = this.o.startNode): HistoryClient {
    const c = new HistoryClient({
      addresses: this.o.addresses,
      history: this.history,
      nowUs: this.nowUs,
      client: this.o.workers + slot,
      idStride: ID_STRIDE,
      target,
      requestTimeoutMs: this.o.requestTimeoutMs ?? 1000,
    });
    this.clients.push(c);
    return c;
  }

  private async work(w: number): Promise<void> {
    const c = new HistoryClient({
      addresses: this.o.addresses,
      history: this.history,
      nowUs: this.nowUs,
      client: w,
      idStride: ID_STRIDE,
      target: this.o.startNode,
      requestTimeoutMs: this.o.requestTimeoutMs ?? 1000,
    });
    this.clients.push(c);
    if (this.o.connectEveryNode) await c.connectEveryNode();
    for (let i = 0; this.running; i++) {
      const shared = `s${(i + w) % this.o.sharedKeys}`;
      const own = this.o.ownKeys ? Math.floor(i / 3) % this.o.ownKeys : i;
      const op =
        i % 3 === 0 ? await c.run('put', `w${w}k${own}`, `v${i}`) : i % 3 === 1 ? await c.run('put', shared, `w${w}.${i}`) : await c.run('get', shared);
      if (op.result === 'unknown') {
        await sleep(10); // unavailable for a moment (a kill, an election): next operation
        continue;
      }
      const at = Date.now();
      this.acknowledged.push({ at });
      if (i % 3 === 0) {
        if (this.o.ownKeys) {
          const older = this.acks.findIndex((a) => a.key === op.key);
          if (older >= 0) this.acks.splice(older, 1);
        }
        this.acks.push({ key: op.key, value: op.value!, at });
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}
