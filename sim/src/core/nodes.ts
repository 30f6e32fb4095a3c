// The cluster's engine instances: one SyncNode per node (its own wasm instance, like a process).
// A crash destroys the instance; a restart creates a fresh one with empty state.
//
// Node seeds follow the conformance harness: node i of a cluster with seed S gets S + i, and
// S + i + 16·k after its k-th restart, so a step session replays the shared transcripts' seeds.
import type { NodeConfig, SyncEngine, SyncNode } from '@replicant/engines/loader/engine';

export const SEED_STRIDE_PER_INCARNATION = 16;
export const MAX_NODES = 15;
export const MAX_CLUSTER_SEED = 2 ** 53 - 1 - MAX_NODES - SEED_STRIDE_PER_INCARNATION * 1_000_000;

export interface NodeSetOptions {
  seed: number;
  commit_interval_us?: number;
  /** the leader steps down without a majority's answers (docs/protocol.md, Check-quorum) */
  check_quorum?: boolean;
  /** steady-state repair: entries a follower lacks re-sent per heartbeat (0 = off, the paper's) */
  repair_batch?: number;
  /** bounded elections: promise chunk size and replay window (0 = off, the paper's) */
  election_batch?: number;
  /** durability log: the cores emit persist effects and hold what depends on them */
  durability?: 'none' | 'log';
  /** GC mitigation in the cores (docs/protocol.md): exact mode's BLADE */
  mitigation?: 'none' | 'blade' | 'mitmem' | 'both';
  trace: boolean;
}

export class NodeSet {
  readonly nodes: (SyncNode | null)[];
  readonly incarnations: number[];

  constructor(
    readonly engines: SyncEngine[],
    readonly options: NodeSetOptions,
  ) {
    validateClusterSeed(options.seed);
    if (engines.length < 1 || engines.length > MAX_NODES) throw new RangeError(`a cluster has 1..${MAX_NODES} nodes: ${engines.length}`);
    this.nodes = engines.map(() => null);
    this.incarnations = engines.map(() => -1);
  }

  get size(): number {
    return this.engines.length;
  }

  config(id: number): NodeConfig {
    const cfg: NodeConfig = {
      id,
      num_peers: this.size,
      seed: this.options.seed + id + SEED_STRIDE_PER_INCARNATION * this.incarnations[id]!,
      trace: this.options.trace,
    };
    if (this.options.commit_interval_us !== undefined) cfg.commit_interval_us = this.options.commit_interval_us;
    // only when on: off is every core's default, and a config without the field stays readable
    // by builds that predate it
    if (this.options.check_quorum) cfg.check_quorum = true;
    if (this.options.repair_batch) cfg.repair_batch = this.options.repair_batch;
    if (this.options.election_batch) cfg.election_batch = this.options.election_batch;
    if (this.options.durability === 'log') cfg.durability = 'log';
    if (this.options.mitigation && this.options.mitigation !== 'none') cfg.mitigation = this.options.mitigation;
    return cfg;
  }

  /** Creates a fresh instance for node id (boot or restart). The caller feeds it the start event. */
  boot(id: number): SyncNode {
    if (this.nodes[id]) throw new Error(`n${id} is up`);
    if (this.incarnations[id]! + 1 > 1_000_000) throw new RangeError(`n${id} restarted too often`);
    this.incarnations[id]!++;
    const node = this.engines[id]!.createNode(this.config(id));
    this.nodes[id] = node;
    return node;
  }

  crash(id: number): void {
    const n = this.nodes[id];
    if (!n) throw new Error(`n${id} is down`);
    this.nodes[id] = null;
    n.destroy();
  }

  isUp(id: number): boolean {
    return this.nodes[id] != null;
  }

  get(id: number): SyncNode {
    const n = this.nodes[id];
    if (!n) throw new Error(`n${id} is down`);
    return n;
  }

  close(): void {
    for (let id = 0; id < this.size; id++) {
      const n = this.nodes[id];
      this.nodes[id] = null;
      n?.destroy();
    }
  }
}

export function validateClusterSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_CLUSTER_SEED)
    throw new RangeError(`cluster seed must be an integer in [0, ${MAX_CLUSTER_SEED}]: ${seed}`);
}
