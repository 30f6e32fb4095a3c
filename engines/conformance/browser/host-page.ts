// Runs inside Chromium for the wasm-browser target: loads engines' wasm builds from the
// harness's little server (/repo/ maps to engines/) and exposes them to Playwright as
// window.replicantHost. Each engine gets a loader here that fetches its artefacts.
import type { EngineName, NodeConfig, SyncEngine, SyncNode } from '../../loader/engine.ts';
import { goEngine } from '../../loader/go-wasm.ts';
import { rustEngine, type RustGlue } from '../../loader/rust-wasm.ts';
import { javaWasmGcEngine } from '../../loader/java-wasm.ts';
import { cppEngine, type CppModuleFactory } from '../../loader/cpp-wasm.ts';
import { stepBatchAsJson, stepBinaryAsJson } from '../../loader/binary-codec.ts';

type Loader = () => Promise<SyncEngine>;

async function loadScript(url: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`cannot load ${url}`));
    document.head.appendChild(s);
  });
}

const loaders: Partial<Record<EngineName, Loader>> = {
  async go() {
    await loadScript('/repo/go-wasm/dist/wasm_exec.js');
    const module = await WebAssembly.compileStreaming(fetch('/repo/go-wasm/dist/replicant.wasm'));
    return goEngine(module, (globalThis as unknown as { Go: never }).Go, 'wasm-browser');
  },
  async rust() {
    // A variable URL: the bundler leaves the import to the browser.
    const glueUrl = '/repo/rust-wasm/dist/replicant_wasm.js';
    const glue = (await import(/* @vite-ignore */ glueUrl)) as { createGlue: () => RustGlue };
    const module = await WebAssembly.compileStreaming(fetch('/repo/rust-wasm/dist/replicant_wasm_bg.wasm'));
    return rustEngine(module, glue.createGlue, 'wasm-browser');
  },
  async java() {
    // TeaVM's WasmGC loader installs globalThis.TeaVM; the adapter compiles from bytes.
    await loadScript('/repo/java-wasm/dist/replicant-java.wasm-runtime.js');
    const bytes = await (await fetch('/repo/java-wasm/dist/replicant-java.wasm')).arrayBuffer();
    return javaWasmGcEngine(bytes);
  },
  async cpp() {
    const glueUrl = '/repo/cpp-wasm/dist/replicant.mjs'; // a variable: loaded at run time, not bundled
    const [glue, module] = await Promise.all([
      import(glueUrl) as Promise<{ default: CppModuleFactory }>,
      WebAssembly.compileStreaming(fetch('/repo/cpp-wasm/dist/replicant.wasm')),
    ]);
    return cppEngine(module, glue.default, 'wasm-browser');
  },
};

const engines = new Map<EngineName, SyncEngine>();
const nodes = new Map<number, SyncNode>();
let nextHandle = 1;

const host = {
  async load(name: EngineName): Promise<void> {
    if (engines.has(name)) return;
    const loader = loaders[name];
    if (!loader) throw new Error(`no browser loader for ${name}`);
    engines.set(name, await loader());
  },
  create(name: EngineName, config: NodeConfig): number {
    const engine = engines.get(name);
    if (!engine) throw new Error(`${name} is not loaded`);
    nodes.set(nextHandle, engine.createNode(config));
    return nextHandle++;
  },
  step(handle: number, event: string): string {
    return nodes.get(handle)!.step(event);
  },
  hasBinaryStep: (handle: number): boolean => nodes.get(handle)!.stepBinary !== undefined,
  /** The binary step, translated here, where the node lives (binary-codec.ts). */
  stepBinaryAsJson: (handle: number, event: string): string => stepBinaryAsJson(nodes.get(handle)!, event),
  hasBatchStep: (handle: number): boolean => nodes.get(handle)!.stepBatch !== undefined,
  /** The batch step on these events in one call, translated here (binary-codec.ts). */
  stepBatchAsJson: (handle: number, events: string[]): string[] => stepBatchAsJson(nodes.get(handle)!, events),
  /** Many steps in one round trip (the differential test sends batches). */
  stepMany(handle: number, events: string[]): string[] {
    const n = nodes.get(handle)!;
    return events.map((e) => n.step(e));
  },
  inspect: (handle: number) => nodes.get(handle)!.inspect(),
  stats: (handle: number) => nodes.get(handle)!.stats(),
  destroy(handle: number): void {
    nodes.get(handle)?.destroy();
    nodes.delete(handle);
  },
};

(globalThis as unknown as { replicantHost: typeof host }).replicantHost = host;
