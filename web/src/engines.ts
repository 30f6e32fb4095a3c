// Loads the engines' wasm builds in the browser, on demand: each engine is its own chunk and
// its wasm is fetched only when a view asks for it. Every loader returns the same SyncEngine
// interface (engines/loader/engine.ts).
import type { EngineName, SyncEngine } from '../../engines/loader/engine.ts';

export const ENGINE_LABEL: Record<EngineName, string> = { cpp: 'C++', rust: 'Rust', go: 'Go', java: 'Java' };

type Loader = () => Promise<SyncEngine>;

// The build artefacts present when this site was built; an engine without them is listed as
// unavailable instead of failing when chosen.
const ARTEFACTS = import.meta.glob('../../engines/*-wasm/dist/*.wasm', { query: '?url', import: 'default' });
const built = (path: string) => `../../engines/${path}` in ARTEFACTS;

const LOADERS: Partial<Record<EngineName, Loader>> = {};

if (built('go-wasm/dist/replicant.wasm')) {
  LOADERS.go = async () => {
    const [{ goEngine }, wasmUrl] = await Promise.all([
      import('../../engines/loader/go-wasm.ts'),
      ARTEFACTS['../../engines/go-wasm/dist/replicant.wasm']!() as Promise<string>,
      import('../../engines/go-wasm/dist/wasm_exec.js'),
    ]);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    return goEngine(module, (globalThis as unknown as { Go: never }).Go, 'wasm-browser');
  };
}

if (built('java-wasm/dist/replicant-java.wasm')) {
  LOADERS.java = async () => {
    const [{ javaWasmGcEngine }, wasmUrl] = await Promise.all([
      import('../../engines/loader/java-wasm.ts'),
      ARTEFACTS['../../engines/java-wasm/dist/replicant-java.wasm']!() as Promise<string>,
      // TeaVM's WasmGC runtime installs globalThis.TeaVM; the adapter is handed bytes, not a URL
      // (wasm_exec.js defines globalThis.process, which TeaVM would take for Node).
      import('../../engines/java-wasm/dist/replicant-java.wasm-runtime.js'),
    ]);
    const bytes = await (await fetch(wasmUrl)).arrayBuffer();
    return javaWasmGcEngine(bytes);
  };
}

if (built('cpp-wasm/dist/replicant.wasm')) {
  const glue = import.meta.glob('../../engines/cpp-wasm/dist/replicant.mjs');
  LOADERS.cpp = async () => {
    const [{ cppEngine }, wasmUrl, factory] = await Promise.all([
      import('../../engines/loader/cpp-wasm.ts'),
      ARTEFACTS['../../engines/cpp-wasm/dist/replicant.wasm']!() as Promise<string>,
      Object.values(glue)[0]!() as Promise<{ default: import('../../engines/loader/cpp-wasm.ts').CppModuleFactory }>,
    ]);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    return cppEngine(module, factory.default, 'wasm-browser');
  };
}

if (built('rust-wasm/dist/replicant_wasm_bg.wasm')) {
  const glue = import.meta.glob('../../engines/rust-wasm/dist/replicant_wasm.js');
  LOADERS.rust = async () => {
    const [{ rustEngine }, wasmUrl, mod] = await Promise.all([
      import('../../engines/loader/rust-wasm.ts'),
      ARTEFACTS['../../engines/rust-wasm/dist/replicant_wasm_bg.wasm']!() as Promise<string>,
      Object.values(glue)[0]!() as Promise<{ createGlue: () => import('../../engines/loader/rust-wasm.ts').RustGlue }>,
    ]);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    return rustEngine(module, mod.createGlue, 'wasm-browser');
  };
}

/** Engines this build can run in the browser, in the lab's display order. */
export const BROWSER_ENGINES: EngineName[] = (['cpp', 'rust', 'go', 'java'] as EngineName[]).filter((e) => LOADERS[e]);

const cache = new Map<EngineName, Promise<SyncEngine>>();

export function loadBrowserEngine(name: EngineName): Promise<SyncEngine> {
  const loader = LOADERS[name];
  if (!loader) return Promise.reject(new Error(`the ${ENGINE_LABEL[name]} engine is not part of this build`));
  let p = cache.get(name);
  if (!p) {
    p = loader();
    // A failed load may succeed later (e.g. a network hiccup on a slow server): do not cache it.
    p.catch(() => cache.delete(name));
    cache.set(name, p);
  }
  return p;
}
