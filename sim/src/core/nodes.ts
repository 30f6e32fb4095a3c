// The timed simulator's engine instances: one SyncNode per node (its own wasm instance, like a
// process). A crash destroys the instance; a restart creates a fresh one with empty state. The
// simulator owns the clock and the network, so it only needs the nodes' lifecycle; the seeds
// and knobs follow the scripted cluster's rule (@replicant/engines/scripted), so a run replays
// the transcripts' seeds. Drivers that script every step use that cluster itself.
import type { SyncEngine, SyncNode } from '@replicant/engines/loader/engine';
import { type ClusterKnobs, MAX_INCARNATIONS, nodeConfig, validateClusterSeed, validateClusterSize } from '@replicant/engines/scripted';

export { MAX_CLUSTER_SEED, MAX_NODES, SEED_STRIDE_PER_INCARNATION, validateClusterSeed } from '@replicant/engines/scripted';

export interface NodeSetOptions extends ClusterKnobs {
  seed: number;
}

export class NodeSet {
  readonly nodes: (SyncNode | null)[];
  readonly incarnations: number[];

  constructor(
    readonly engines: SyncEngine[],
    readonly options: NodeSetOptions,
  ) {
    validateClusterSeed(options.seed);
    validateClusterSize(engines.length);
    this.nodes = engines.map(() => null);
    this.incarnations = engines.map(() => -1);
  }

  get size(): number {
    return this.engines.length;
  }

  /** Creates a fresh instance for node id (boot or restart). The caller feeds it the start event. */
  boot(id: number): SyncNode {
    if (this.nodes[id]) throw new Error(`n${id} is up`);
    if (this.incarnations[id]! + 1 > MAX_INCARNATIONS) throw new RangeError(`n${id} restarted too often`);
    this.incarnations[id]!++;
    const node = this.engines[id]!.createNode(nodeConfig(id, this.size, this.options.seed, this.incarnations[id]!, this.options));
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
