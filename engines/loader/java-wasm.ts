// Loads the Java core as compiled by TeaVM 0.15.0. Two builds of the same Java code:
//
// - WebAssembly GC (replicant-java.wasm): what runs in browsers. Its objects live on the
//   browser's garbage-collected heap. Node 20's V8 predates the final WasmGC encoding, so this
//   build cannot run in Node 20.
// - JavaScript (replicant-java.js, CommonJS text): what the `wasm-node` target runs in Node.
//   There the Java core runs as TeaVM-compiled JavaScript, not as WebAssembly.
//
// In the JavaScript build the nodes of one engine share one instance of the module (each a
// handle with its own objects; destroy drops them); in WebAssembly GC every node gets its own
// instance. Nodes are created synchronously. This file has no
// Node-only imports: node-loaders.ts reads the files, a browser page fetches them.
import { EngineError, NodeConfig, SyncEngine, SyncNode } from './engine.ts';
import { frameHeaderBytes, writeFrameHeader } from './linear-memory.ts';

/** What both builds export (see engines/java-wasm/src/main/java/replicant/wasm/). */
interface JavaExports {
  /** A handle ≥ 1, or 0 with lastError() naming the problem. */
  create(configJson: string): number;
  lastError(): string;
  step(handle: number, eventJson: string): string | null;
  inspect(handle: number): string | null;
  stats(handle: number): string | null;
  destroy(handle: number): void;
  /**
   * The binary step (docs/protocol.md, "Binary step"): effects as an Int8Array, or null for an
   * unknown handle. In the JavaScript build the event is read in place and the effects are a
   * view of the node's output buffer, rewritten by its next step.
   */
  rc_step_binary(handle: number, event: Int8Array): Int8Array | null;
  /**
   * The batch step (docs/protocol.md, "Batch step"), bytes passed as rc_step_binary's: null for
   * an unknown handle; an empty array for a non-empty input is bad framing (Exports.java).
   */
  rc_step_batch(handle: number, batch: Int8Array): Int8Array | null;
}

const EXPORT_NAMES = ['create', 'lastError', 'step', 'rc_step_binary', 'rc_step_batch', 'inspect', 'stats', 'destroy'] as const;

function javaNode(api: JavaExports, config: NodeConfig): SyncNode {
  const handle = api.create(JSON.stringify(config));
  if (!handle) {
    const message = api.lastError();
    throw new EngineError('java', message || 'create failed');
  }
  const check = (value: string | null | undefined, what: string): string => {
    if (typeof value !== 'string') throw new EngineError('java', `${what}: unknown node`);
    return value;
  };
  const stepBatch = (batch: Uint8Array): Uint8Array => {
    const effects = api.rc_step_batch(handle, new Int8Array(batch.buffer, batch.byteOffset, batch.length));
    if (!effects) throw new EngineError('java', 'step: unknown node');
    if (effects.length === 0 && batch.length > 0) throw new EngineError('java', 'step: bad batch framing');
    return new Uint8Array(effects.buffer, effects.byteOffset, effects.length);
  };
  // stepEvents' frames, assembled here (the module takes one array)
  let frames = new Uint8Array(4096);
  return {
    step: (e) => check(api.step(handle, e), 'step'),
    stepBatch,
    stepEvents: (events) => {
      let total = 0;
      for (const e of events) total += frameHeaderBytes(e.length) + e.length;
      if (frames.length < total) frames = new Uint8Array(Math.max(total, frames.length * 2));
      let at = 0;
      for (const e of events) {
        at = writeFrameHeader(frames, at, e.length);
        frames.set(e, at);
        at += e.length;
      }
      return stepBatch(frames.subarray(0, total));
    },
    stepBinary: (event) => {
      // Java's byte is signed: the module reads the event through an Int8Array view of it
      const effects = api.rc_step_binary(handle, new Int8Array(event.buffer, event.byteOffset, event.length));
      if (!effects) throw new EngineError('java', 'step: unknown node');
      return new Uint8Array(effects.buffer, effects.byteOffset, effects.length);
    },
    inspect: () => check(api.inspect(handle), 'inspect'),
    stats: () => check(api.stats(handle), 'stats'),
    // Once the caller drops the node, its instance (and that instance's whole heap) is garbage.
    destroy: () => api.destroy(handle),
  };
}

/**
 * The TeaVM JavaScript build. `source` is the text of replicant-java.js (a CommonJS module). It
 * is evaluated once, on the first node, and every node of this engine is a handle in that one
 * instance (Exports.java holds nodes by handle, as the JVM host does): evaluating it per node
 * cost each node the module's set-up and left V8 to compile the core's hot functions afresh for
 * every run's nodes (sim/README.md, "Speed": Java's start-up). The core keeps no mutable state
 * outside its nodes; `stats` counts the instance's live nodes.
 */
export function javaJsEngine(source: string, target: 'wasm-node' | 'wasm-browser' = 'wasm-node'): SyncEngine {
  let api: JavaExports | null = null;
  const instance = (): JavaExports => {
    if (api) return api;
    const exports: Partial<JavaExports> = {};
    (new Function('exports', 'module', source) as (exports: object, module: object) => void)(exports, { exports });
    for (const name of EXPORT_NAMES) {
      if (typeof exports[name] !== 'function') throw new EngineError('java', `replicant-java.js lacks ${name}`);
    }
    api = exports as JavaExports;
    return api;
  };
  return {
    name: 'java',
    target,
    createNode: (config: NodeConfig): SyncNode => javaNode(instance(), config),
    close() {},
  };
}

/** The part of TeaVM's WasmGC loader (replicant-java.wasm-runtime.js, `TeaVM.wasmGC`) we use. */
export interface TeaVMWasmGC {
  defaults(
    imports: Record<string, unknown>,
    userExports: Record<string, unknown>,
    stringBuiltins: boolean,
  ): { supplyExports(exports: WebAssembly.Exports): void };
}

interface MemoryRequirements {
  dataSize?: number;
  min?: number;
}

function memoryRequirements(module: WebAssembly.Module): MemoryRequirements {
  const sections = WebAssembly.Module.customSections(module, 'teavm.memoryRequirements');
  return sections.length === 1 ? (JSON.parse(new TextDecoder().decode(sections[0])) as MemoryRequirements) : {};
}

/**
 * The TeaVM WebAssembly GC build, from its bytes. Compiles once (asynchronously, with the
 * js-string builtins where the browser has them); each node is then instantiated synchronously.
 *
 * TeaVM's own `TeaVM.wasmGC.load` is asynchronous and compiles per call, so this instantiates
 * the way it does: the standard imports from `TeaVM.wasmGC.defaults`, plus the small linear
 * memory the module declares (TeaVM 0.15 keeps its direct-buffer heap there). Every import the
 * module asks for is checked, so a TeaVM upgrade that changes them fails loudly here.
 *
 * @param runtime `TeaVM.wasmGC`, installed on globalThis by replicant-java.wasm-runtime.js
 */
export async function javaWasmGcEngine(
  bytes: BufferSource,
  runtime: TeaVMWasmGC | undefined = (globalThis as { TeaVM?: { wasmGC?: TeaVMWasmGC } }).TeaVM?.wasmGC,
  target: 'wasm-browser' | 'wasm-node' = 'wasm-browser',
): Promise<SyncEngine> {
  if (!runtime) throw new EngineError('java', 'TeaVM.wasmGC is missing: load replicant-java.wasm-runtime.js first');
  const compile = WebAssembly.compile as (b: BufferSource, options?: { builtins: string[] }) => Promise<WebAssembly.Module>;
  const module = await compile(bytes, { builtins: ['js-string'] });
  const wanted = WebAssembly.Module.imports(module);
  // With the builtins active the engine supplies wasm:js-string itself and does not list it.
  const stringBuiltins = !wanted.some((i) => i.module === 'wasm:js-string');
  const memory = memoryRequirements(module);
  const heapOffset = Math.ceil((memory.dataSize ?? 0) / 256) * 256;
  const maxSize = 0x7fffffff;

  return {
    name: 'java',
    target,
    createNode(config: NodeConfig): SyncNode {
      const imports: Record<string, Record<string, unknown>> = {};
      const userExports: Record<string, unknown> = {};
      const linked = runtime.defaults(imports, userExports, stringBuiltins);
      const linearMemory = new WebAssembly.Memory({
        initial: Math.max(memory.min ?? 0, 1),
        maximum: ((maxSize - 1) >> 16) + 1,
      });
      imports.env = { memory: linearMemory };
      imports.teavmMemory = {
        linearMemory: () => linearMemory.buffer,
        notifyHeapResized: () => {},
        heapOffset: new WebAssembly.Global({ value: 'i32', mutable: false }, heapOffset),
        maxSize: new WebAssembly.Global({ value: 'i32', mutable: false }, maxSize),
      };
      for (const i of wanted) {
        if (imports[i.module]?.[i.name] === undefined) {
          throw new EngineError('java', `replicant-java.wasm imports ${i.module}.${i.name}, which this loader does not provide`);
        }
      }
      const instance = new WebAssembly.Instance(module, imports as WebAssembly.Imports);
      linked.supplyExports(instance.exports);
      const api: Partial<JavaExports> = {};
      for (const name of EXPORT_NAMES) {
        const g = instance.exports[name];
        const fn = g instanceof WebAssembly.Global ? (g.value as unknown) : undefined;
        if (typeof fn !== 'function') throw new EngineError('java', `replicant-java.wasm lacks ${name}`);
        (api as Record<string, unknown>)[name] = fn;
      }
      return javaNode(api as JavaExports, config);
    },
    close() {},
  };
}
