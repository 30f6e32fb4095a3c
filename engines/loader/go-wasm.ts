// Loads the Go core's js/wasm build. Every node gets its own Go runtime instance (its own
// linear memory and garbage collector, like a process); all share one compiled module.
// Steps go through the module's plain byte exports (rc_*: the C++ module's convention, see
// linear-memory.ts), which skip syscall/js's per-call hand-off to the parked Go program and
// its string copies; create, inspect and stats through the syscall/js object.
import { EngineError, NodeConfig, SyncEngine, SyncNode } from './engine.ts';
import { BAD_BATCH_FRAMING, readText, writeBytes, writeFrames, writeText, type LinearMemoryExports } from './linear-memory.ts';

interface GoExports {
  create(configJson: string): { handle?: number; error?: string };
  step(handle: number, eventJson: string): string | undefined;
  inspect(handle: number): string | undefined;
  stats(handle: number): string | undefined;
  destroy(handle: number): void;
}

/** The module's own exports (engines/go-wasm/cmd/replicant-wasm/main.go, go:wasmexport). */
interface GoByteExports {
  mem: WebAssembly.Memory;
  rc_input(length: number): number;
  rc_step(handle: number, length: number): number;
  rc_step_binary(handle: number, length: number): number;
  rc_step_batch(handle: number, length: number): number;
  rc_output(): number;
}

interface GoRuntime {
  argv: string[];
  env: Record<string, string>;
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
}

type GoConstructor = new () => GoRuntime;

let instanceCounter = 0;

/**
 * @param module the compiled replicant.wasm
 * @param Go the `Go` class that wasm_exec.js installs on globalThis
 */
export function goEngine(module: WebAssembly.Module, Go: GoConstructor, target: 'wasm-node' | 'wasm-browser'): SyncEngine {
  const check = (value: string | undefined, what: string): string => {
    if (typeof value !== 'string') throw new EngineError('go', `${what}: unknown node`);
    return value;
  };
  return {
    name: 'go',
    target,
    createNode(config: NodeConfig): SyncNode {
      const exportName = `__replicant_go_${++instanceCounter}`;
      const go = new Go();
      go.argv = ['replicant', exportName];
      go.env = {};
      const instance = new WebAssembly.Instance(module, go.importObject);
      void go.run(instance); // runs main() until it parks; the exports are then installed
      const g = globalThis as unknown as Record<string, GoExports | undefined>;
      const api = g[exportName];
      if (!api) throw new EngineError('go', 'wasm module did not install its exports');
      const created = api.create(JSON.stringify(config));
      if (created.error !== undefined || created.handle === undefined) {
        delete g[exportName];
        throw new EngineError('go', created.error ?? 'create failed');
      }
      const handle = created.handle;
      const bytes = instance.exports as unknown as GoByteExports;
      let view = new Uint8Array(0);
      const memory: LinearMemoryExports = {
        heap: () => {
          if (view.buffer !== bytes.mem.buffer) view = new Uint8Array(bytes.mem.buffer);
          return view;
        },
        reserve: (length) => bytes.rc_input(length),
      };
      let destroyed = false;
      // The binary and batch steps' effects: a view of the output buffer.
      const output = (effects: number): Uint8Array => {
        if (effects < 0) throw new EngineError('go', effects === BAD_BATCH_FRAMING ? 'step: bad batch framing' : 'step: unknown node');
        const at = bytes.rc_output();
        return memory.heap().subarray(at, at + effects);
      };
      return {
        step: (e) => {
          if (destroyed) throw new EngineError('go', 'step: unknown node');
          const length = writeText(memory, e);
          if (length < 0) throw new EngineError('go', 'step: out of memory');
          const effects = bytes.rc_step(handle, length);
          if (effects < 0) throw new EngineError('go', 'step: unknown node');
          return readText(memory, bytes.rc_output(), effects);
        },
        stepBinary: (event) => {
          if (destroyed) throw new EngineError('go', 'step: unknown node');
          if (!writeBytes(memory, event)) throw new EngineError('go', 'step: out of memory');
          return output(bytes.rc_step_binary(handle, event.length));
        },
        stepBatch: (batch) => {
          if (destroyed) throw new EngineError('go', 'step: unknown node');
          if (!writeBytes(memory, batch)) throw new EngineError('go', 'step: out of memory');
          return output(bytes.rc_step_batch(handle, batch.length));
        },
        stepEvents: (events) => {
          if (destroyed) throw new EngineError('go', 'step: unknown node');
          const length = writeFrames(memory, events);
          if (length < 0) throw new EngineError('go', 'step: out of memory');
          return output(bytes.rc_step_batch(handle, length));
        },
        inspect: () => check(api.inspect(handle), 'inspect'),
        stats: () => check(api.stats(handle), 'stats'),
        destroy: () => {
          destroyed = true;
          api.destroy(handle);
          delete g[exportName]; // lets the runtime instance be collected
        },
      };
    },
    close() {},
  };
}
