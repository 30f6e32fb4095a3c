// Loads the C++ core's Emscripten build (engines/cpp-wasm/wasm/replicant_wasm.cc). Every node
// gets its own module instance (its own linear memory and allocator, like a process); all
// share one compiled WebAssembly.Module, handed to the glue through `instantiateWasm` so that
// it never fetches or reads a file. No Node-only imports here: the same adapter runs in
// browsers and workers.
import { EngineError, NodeConfig, SyncEngine, SyncNode } from './engine.ts';
import { BAD_BATCH_FRAMING, readText, writeBytes, writeFrames, writeText, type LinearMemoryExports } from './linear-memory.ts';

/** The exports of one instance (see replicant_wasm.cc for the calling convention). */
interface CppExports {
  HEAPU8: Uint8Array;
  _rc_input(length: number): number;
  _rc_output(): number;
  _rc_create(length: number): number;
  _rc_step(handle: number, length: number): number;
  _rc_step_binary(handle: number, length: number): number;
  _rc_step_batch(handle: number, length: number): number;
  _rc_inspect(handle: number): number;
  _rc_stats(handle: number): number;
  _rc_destroy(handle: number): void;
}

/** The glue's default export (MODULARIZE + EXPORT_ES6): a factory taking Module settings. */
export type CppModuleFactory = (moduleArg: Record<string, unknown>) => Promise<unknown>;

/** Creates one instance synchronously: instantiateWasm hands back a ready instance. */
function instantiate(module: WebAssembly.Module, factory: CppModuleFactory): CppExports {
  const moduleArg: Record<string, unknown> = {
    instantiateWasm(imports: WebAssembly.Imports, receive: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) {
      const instance = new WebAssembly.Instance(module, imports);
      receive(instance, module);
      return instance.exports;
    },
    print: (text: string) => console.log(`[cpp] ${text}`),
    printErr: (text: string) => console.warn(`[cpp] ${text}`),
  };
  const ready = factory(moduleArg);
  ready.catch(() => {}); // failures surface below, synchronously
  // With a synchronous instantiateWasm the glue runs its constructors before returning.
  if (moduleArg.calledRun !== true) throw new EngineError('cpp', 'wasm module did not start');
  return moduleArg as unknown as CppExports;
}

/**
 * @param module the compiled replicant.wasm
 * @param factory the default export of replicant.mjs
 */
export function cppEngine(module: WebAssembly.Module, factory: CppModuleFactory, target: 'wasm-node' | 'wasm-browser'): SyncEngine {
  return {
    name: 'cpp',
    target,
    createNode(config: NodeConfig): SyncNode {
      let m: CppExports | null = instantiate(module, factory);
      const api = (): CppExports => {
        if (!m) throw new EngineError('cpp', 'node destroyed');
        return m;
      };
      const memory: LinearMemoryExports = { heap: () => api().HEAPU8, reserve: (length) => api()._rc_input(length) };
      const write = (text: string): number => {
        const length = writeText(memory, text);
        if (length < 0) throw new EngineError('cpp', 'out of memory');
        return length;
      };
      const read = (length: number, what: string): string => {
        if (length < 0) throw new EngineError('cpp', `${what}: unknown node`);
        return readText(memory, api()._rc_output(), length);
      };
      // The binary and batch steps: bytes in, a view of the output buffer back.
      const stepBytes = (input: Uint8Array, call: (handle: number, length: number) => number): Uint8Array => {
        if (!writeBytes(memory, input)) throw new EngineError('cpp', 'out of memory');
        return output(call(handle, input.length));
      };
      const output = (length: number): Uint8Array => {
        if (length < 0) throw new EngineError('cpp', length === BAD_BATCH_FRAMING ? 'step: bad batch framing' : 'step: unknown node');
        const at = api()._rc_output();
        return api().HEAPU8.subarray(at, at + length);
      };
      const handle = api()._rc_create(write(JSON.stringify(config)));
      if (handle <= 0) {
        const message = read(-handle, 'create');
        m = null;
        throw new EngineError('cpp', message || 'create failed');
      }
      return {
        step: (e) => {
          const length = write(e);
          return read(api()._rc_step(handle, length), 'step');
        },
        stepBinary: (event) => stepBytes(event, api()._rc_step_binary),
        stepBatch: (batch) => stepBytes(batch, api()._rc_step_batch),
        stepEvents: (events) => {
          const length = writeFrames(memory, events);
          if (length < 0) throw new EngineError('cpp', 'out of memory');
          return output(api()._rc_step_batch(handle, length));
        },
        inspect: () => read(api()._rc_inspect(handle), 'inspect'),
        stats: () => read(api()._rc_stats(handle), 'stats'),
        destroy: () => {
          if (!m) return;
          m._rc_destroy(handle);
          m = null; // drops the instance and its memory
        },
      };
    },
    close() {},
  };
}
