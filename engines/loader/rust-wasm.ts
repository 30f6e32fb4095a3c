// Loads the Rust core's WebAssembly build. Every node gets its own WebAssembly instance (its
// own linear memory and allocator, like a process) from one compiled module: wasm-bindgen's
// glue keeps one instance per JavaScript module, so the build wraps it as a factory
// (engines/rust-wasm/wrap-glue.mjs) and each node gets a fresh copy of the glue.
// Steps go through the module's byte exports (rc_*: the C++ module's convention, see
// linear-memory.ts; rc_step_binary for the binary step, rc_step_batch for the batch step); create, inspect and stats through the glue's strings.
// No Node-only imports here: browsers and Vite use this file too.
import { EngineError, NodeConfig, SyncEngine, SyncNode } from './engine.ts';
import { BAD_BATCH_FRAMING, readText, writeBytes, writeFrames, writeText, type LinearMemoryExports } from './linear-memory.ts';

/** What one copy of the wrapped glue offers (engines/rust-wasm/dist/replicant_wasm.d.ts). */
export interface RustGlue {
  initSync(options: { module: WebAssembly.Module }): unknown;
  create(configJson: string): number;
  step(handle: number, eventJson: string): string;
  inspect(handle: number): string;
  stats(handle: number): string;
  destroy(handle: number): void;
  rc_input(length: number): number;
  rc_step(handle: number, length: number): number;
  rc_step_binary(handle: number, length: number): number;
  rc_step_batch(handle: number, length: number): number;
  rc_output(): number;
  memory(): WebAssembly.Memory;
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
      // A Uint8Array view of the memory, made again only when the memory has grown.
      let view = new Uint8Array(0);
      const memory: LinearMemoryExports = {
        heap: () => {
          const buffer = live().memory().buffer;
          if (view.buffer !== buffer) view = new Uint8Array(buffer);
          return view;
        },
        reserve: (length) => live().rc_input(length),
      };
      // The binary and batch steps: bytes in, a view of the output buffer back.
      const stepBytes = (input: Uint8Array, call: (handle: number, length: number) => number): Uint8Array => {
        if (!writeBytes(memory, input)) throw new EngineError('rust', 'step: out of memory');
        return output(call(handle, input.length));
      };
      const output = (effects: number): Uint8Array => {
        if (effects < 0) throw new EngineError('rust', effects === BAD_BATCH_FRAMING ? 'step: bad batch framing' : 'step: unknown node');
        const at = live().rc_output();
        return memory.heap().subarray(at, at + effects);
      };
      return {
        step: (e) => {
          const length = writeText(memory, e);
          if (length < 0) throw new EngineError('rust', 'step: out of memory');
          const effects = live().rc_step(handle, length);
          if (effects < 0) throw new EngineError('rust', 'step: unknown node');
          return readText(memory, live().rc_output(), effects);
        },
        stepBinary: (event) => stepBytes(event, live().rc_step_binary),
        stepBatch: (batch) => stepBytes(batch, live().rc_step_batch),
        stepEvents: (events) => {
          const length = writeFrames(memory, events);
          if (length < 0) throw new EngineError('rust', 'step: out of memory');
          return output(live().rc_step_batch(handle, length));
        },
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
