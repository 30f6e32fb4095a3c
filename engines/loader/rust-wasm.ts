// Loads the Rust core's WebAssembly build. Every node gets its own WebAssembly instance (its
// own linear memory and allocator, like a process) from one compiled module: wasm-bindgen's
// glue keeps one instance per JavaScript module, so the build wraps it as a factory
// (engines/rust-wasm/wrap-glue.mjs) and each node gets a fresh copy of the glue.
// No Node-only imports here: browsers and Vite use this file too.
import { EngineError, NodeConfig, SyncEngine, SyncNode } from './engine.ts';

/** What one copy of the wrapped glue offers (engines/rust-wasm/dist/replicant_wasm.d.ts). */
export interface RustGlue {
  initSync(options: { module: WebAssembly.Module }): unknown;
  create(configJson: string): number;
  step(handle: number, eventJson: string): string;
  inspect(handle: number): string;
  stats(handle: number): string;
  destroy(handle: number): void;
}

/**
 * @param module the compiled replicant_wasm_bg.wasm
 * @param createGlue the factory exported by dist/replicant_wasm.js
 */
export function rustEngine(
  module: WebAssembly.Module,
  createGlue: () => RustGlue,
  target: 'wasm-node' | 'wasm-browser',
): SyncEngine {
  const wrap = <T>(what: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      throw new EngineError('rust', `${what}: ${(err as Error).message ?? String(err)}`);
    }
  };
  return {
    name: 'rust',
    target,
    createNode(config: NodeConfig): SyncNode {
      let glue: RustGlue | null = createGlue();
      glue.initSync({ module });
      const handle = wrap('create', () => glue!.create(JSON.stringify(config)));
      const live = (): RustGlue => {
        if (!glue) throw new EngineError('rust', 'node was destroyed');
        return glue;
      };
      return {
        step: (e) => live().step(handle, e),
        inspect: () => wrap('inspect', () => live().inspect(handle)),
        stats: () => wrap('stats', () => live().stats(handle)),
        destroy: () => {
          glue?.destroy(handle);
          glue = null; // the instance and its memory can now be collected
        },
      };
    },
    close() {},
  };
}
