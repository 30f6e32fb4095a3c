// How a scripted cluster configures its nodes: the seed rule every driver shares (so a step
// session in the lab replays a transcript's seeds), and the knobs as the cores read them.
import type { NodeConfig } from '../loader/engine.ts';

/** Seeds of restarted nodes step by this much per incarnation: node i of a cluster seeded S
 * gets S + i, and S + i + 16·k after its k-th restart. */
export const SEED_STRIDE_PER_INCARNATION = 16;
export const MAX_NODES = 15;
/** Restarts one node may have; it keeps every node seed a safe integer. */
export const MAX_INCARNATIONS = 1_000_000;
export const MAX_CLUSTER_SEED = 2 ** 53 - 1 - MAX_NODES - SEED_STRIDE_PER_INCARNATION * MAX_INCARNATIONS;

/** The node configuration a cluster gives all its nodes (NodeConfig without id, peers, seed). */
export type ClusterKnobs = Omit<NodeConfig, 'id' | 'num_peers' | 'seed'>;

export function validateClusterSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_CLUSTER_SEED)
    throw new RangeError(`cluster seed must be an integer in [0, ${MAX_CLUSTER_SEED}]: ${seed}`);
}

export function validateClusterSize(numNodes: number): void {
  if (!Number.isInteger(numNodes) || numNodes < 1 || numNodes > MAX_NODES) throw new RangeError(`a cluster has 1..${MAX_NODES} nodes: ${numNodes}`);
}

export function nodeSeed(clusterSeed: number, id: number, incarnation: number): number {
  return clusterSeed + id + SEED_STRIDE_PER_INCARNATION * incarnation;
}

/**
 * Node id's configuration in its given incarnation. A knob at its default (off, 0, `none`) is
 * left out: every core reads a missing field as the default, and a config without the field
 * stays readable by builds that predate it.
 */
export function nodeConfig(id: number, numNodes: number, clusterSeed: number, incarnation: number, knobs: ClusterKnobs): NodeConfig {
  const cfg: NodeConfig = { id, num_peers: numNodes, seed: nodeSeed(clusterSeed, id, incarnation) };
  if (knobs.commit_interval_us !== undefined) cfg.commit_interval_us = knobs.commit_interval_us;
  if (knobs.accept_timeout_ticks !== undefined) cfg.accept_timeout_ticks = knobs.accept_timeout_ticks;
  if (knobs.max_pending_accepts !== undefined) cfg.max_pending_accepts = knobs.max_pending_accepts;
  if (knobs.trace !== undefined) cfg.trace = knobs.trace;
  if (knobs.check_quorum) cfg.check_quorum = true;
  if (knobs.repair_batch) cfg.repair_batch = knobs.repair_batch;
  if (knobs.election_batch) cfg.election_batch = knobs.election_batch;
  if (knobs.log_bound) cfg.log_bound = knobs.log_bound;
  if (knobs.durability === 'log') cfg.durability = 'log';
  if (knobs.snapshot_every) cfg.snapshot_every = knobs.snapshot_every;
  if (knobs.mitigation !== undefined && knobs.mitigation !== 'none') cfg.mitigation = knobs.mitigation;
  if (knobs.mitmem_deadline_us !== undefined) cfg.mitmem_deadline_us = knobs.mitmem_deadline_us;
  return cfg;
}
