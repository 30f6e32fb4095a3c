// The one seam between the Replicant cores and everything that drives them (conformance
// harness, simulator, web lab). Every engine, in every language and on every target, is
// reached through these two interfaces. See docs/protocol.md, "WebAssembly exports".

import type { EngineName } from './catalogue.ts';
import { stepBatchAsJson, stepBinaryAsJson } from './binary-codec.ts';

export { ENGINE_NAMES, type EngineName } from './catalogue.ts';

export const TARGETS = ['native', 'wasm-node', 'wasm-browser'] as const;
export type Target = (typeof TARGETS)[number];

/** Node configuration as the core reads it (docs/protocol.md, "Data"). */
export interface NodeConfig {
  id: number;
  num_peers: number;
  seed: number;
  commit_interval_us?: number;
  accept_timeout_ticks?: number;
  max_pending_accepts?: number;
  trace?: boolean;
  /** Check-quorum (docs/protocol.md): off by default, the paper's behaviour. */
  check_quorum?: boolean;
  /** Steady-state repair batch (docs/protocol.md): 0 (default) is the paper's behaviour. */
  repair_batch?: number;
  /** Bounded elections (docs/protocol.md): 0 (default) is the paper's behaviour. */
  election_batch?: number;
  /** Log bound (docs/protocol.md, "Log bound"): 0 (default) keeps the paper's unbounded log; needs repair_batch and election_batch. */
  log_bound?: number;
  /** `none` (default, the paper's) or `log`: persist effects gate replies (docs/protocol.md, Durability). */
  durability?: 'none' | 'log';
  /** Durability log: a checkpoint persist every this many executed instances (0, the default: none). */
  snapshot_every?: number;
  /** GC mitigation (docs/protocol.md): `none` (default) collects at once on `gc_pending`. */
  mitigation?: 'none' | 'blade' | 'mitmem' | 'both';
  /** MITMEM answers `busy` when the predicted pause is longer than this (default 20000). */
  mitmem_deadline_us?: number;
}

/** One node inside a synchronous engine (wasm builds). */
export interface SyncNode {
  /** Feeds one canonical event; returns the effects as JSON Lines. */
  step(eventJson: string): string;
  /** Optional while the cores are converted (docs/protocol.md, "Binary step"): feeds one event
   * in the binary encoding (binary-codec.ts); returns the effects in the binary encoding, a
   * view of the module's memory valid until this node's next call. */
  stepBinary?(event: Uint8Array): Uint8Array;
  /** Optional (all four cores; docs/protocol.md, "Batch step"): several binary events, each in
   * a frame (binary-codec.ts's writeBatchFrame), stepped in one call; returns one frame of
   * effects per event, a view valid until this node's next call. Bad framing throws. */
  stepBatch?(batch: Uint8Array): Uint8Array;
  /** Present with stepBatch: the batch step on these binary events, framed straight into the
   * module's memory (linear-memory.ts's writeFrames), so a driver assembles no batch itself. */
  stepEvents?(events: readonly Uint8Array[]): Uint8Array;
  inspect(): string;
  stats(): string;
  destroy(): void;
}

/** A synchronous engine: creates nodes, each with its own state. */
export interface SyncEngine {
  readonly name: EngineName;
  readonly target: Target;
  createNode(config: NodeConfig): SyncNode;
  close(): void;
}

/** The asynchronous view used by drivers that may talk to another process. */
export interface AsyncNode {
  step(eventJson: string): Promise<string>;
  /** The binary step, translated to and from JSON where the node lives (binary-codec.ts's
   * stepBinaryAsJson); absent when the engine has none. */
  stepBinaryAsJson?(eventJson: string): Promise<string>;
  /** The batch step on these events in one call, each one's effects as JSON Lines
   * (binary-codec.ts's stepBatchAsJson); absent when the engine has none. */
  stepBatchAsJson?(eventJsons: readonly string[]): Promise<string[]>;
  inspect(): Promise<string>;
  stats(): Promise<string>;
  destroy(): Promise<void>;
}

export interface AsyncEngine {
  readonly name: EngineName;
  readonly target: Target;
  createNode(config: NodeConfig): Promise<AsyncNode>;
  close(): Promise<void>;
}

/** Wraps a synchronous engine in the asynchronous interface. */
export function asAsync(engine: SyncEngine): AsyncEngine {
  return {
    name: engine.name,
    target: engine.target,
    async createNode(config) {
      const node = engine.createNode(config);
      return {
        step: async (e) => node.step(e),
        ...(node.stepBinary ? { stepBinaryAsJson: async (e: string) => stepBinaryAsJson(node, e) } : {}),
        ...(node.stepBatch ? { stepBatchAsJson: async (es: readonly string[]) => stepBatchAsJson(node, es) } : {}),
        inspect: async () => node.inspect(),
        stats: async () => node.stats(),
        destroy: async () => node.destroy(),
      };
    },
    async close() {
      engine.close();
    },
  };
}

/** Thrown when an engine refuses a configuration or a handle. */
export class EngineError extends Error {
  constructor(engine: string, message: string) {
    super(`${engine}: ${message}`);
    this.name = 'EngineError';
  }
}
