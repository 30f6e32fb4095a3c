// Loads the engines' wasm builds in the browser, on demand: each engine is its own chunk and
// its wasm is fetched only when a view asks for it. Every loader returns the same SyncEngine
// interface (@replicant/engines/loader/engine). The build artefacts are the engines package's
// published `*-wasm/dist/` files.
import { ENGINE_NAMES, languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import type { CppModuleFactory } from '@replicant/engines/loader/cpp-wasm';
import type { RustGlue } from '@replicant/engines/loader/rust-wasm';

type Loader = () => Promise<SyncEngine>;
type Lazy<T> = () => Promise<T>;

// The build artefacts present when this site was built; an engine without them is listed as
// unavailable instead of failing when chosen.
const WASM = import.meta.glob(
  ['@replicant/engines/go-wasm/dist/*.wasm', '@replicant/engines/cpp-wasm/dist/*.wasm', '@replicant/engines/rust-wasm/dist/*.wasm', '@replicant/engines/java-wasm/dist/*.wasm'],
  { query: '?url', import: 'default' },
) as Record<string, Lazy<string>>;
const GLUE = import.meta.glob([
  '@replicant/engines/go-wasm/dist/wasm_exec.js',
  '@replicant/engines/cpp-wasm/dist/replicant.mjs',
  '@replicant/engines/rust-wasm/dist/replicant_wasm.js',
  '@replicant/engines/java-wasm/dist/replicant-java.wasm-runtime.js',
]);

/** The artefact whose path ends with `<engine>-wasm/dist/<file>`, if this build has it. */
function artefact<T>(files: Record<string, Lazy<unknown>>, path: string): Lazy<T> | undefined {
  const key = Object.keys(files).find((k) => k.endsWith(`/${path}`));
  return key === undefined ? undefined : (files[key] as Lazy<T>);
}

function goLoader(): Loader | undefined {
  const wasm = artefact<string>(WASM, 'go-wasm/dist/replicant.wasm');
  const glue = artefact<unknown>(GLUE, 'go-wasm/dist/wasm_exec.js');
  if (!wasm || !glue) return undefined;
  return async () => {
    // wasm_exec.js installs globalThis.Go.
    const [{ goEngine }, wasmUrl] = await Promise.all([import('@replicant/engines/loader/go-wasm'), wasm(), glue()]);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    return goEngine(module, (globalThis as unknown as { Go: never }).Go, 'wasm-browser');
  };
}

function javaLoader(): Loader | undefined {
  const wasm = artefact<string>(WASM, 'java-wasm/dist/replicant-java.wasm');
  const runtime = artefact<unknown>(GLUE, 'java-wasm/dist/replicant-java.wasm-runtime.js');
  if (!wasm || !runtime) return undefined;
  return async () => {
    // TeaVM's WasmGC runtime installs globalThis.TeaVM; the adapter is handed bytes, not a URL
    // (wasm_exec.js defines globalThis.process, which TeaVM would take for Node).
    const [{ javaWasmGcEngine }, wasmUrl] = await Promise.all([import('@replicant/engines/loader/java-wasm'), wasm(), runtime()]);
    const bytes = await (await fetch(wasmUrl)).arrayBuffer();
    return javaWasmGcEngine(bytes);
  };
}

function cppLoader(): Loader | undefined {
  const wasm = artefact<string>(WASM, 'cpp-wasm/dist/replicant.wasm');
  const glue = artefact<{ default: CppModuleFactory }>(GLUE, 'cpp-wasm/dist/replicant.mjs');
  if (!wasm || !glue) return undefined;
  return async () => {
    const [{ cppEngine }, wasmUrl, factory] = await Promise.all([import('@replicant/engines/loader/cpp-wasm'), wasm(), glue()]);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    return cppEngine(module, factory.default, 'wasm-browser');
  };
}

function rustLoader(): Loader | undefined {
  const wasm = artefact<string>(WASM, 'rust-wasm/dist/replicant_wasm_bg.wasm');
  const glue = artefact<{ createGlue: () => RustGlue }>(GLUE, 'rust-wasm/dist/replicant_wasm.js');
  if (!wasm || !glue) return undefined;
  return async () => {
    const [{ rustEngine }, wasmUrl, mod] = await Promise.all([import('@replicant/engines/loader/rust-wasm'), wasm(), glue()]);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    return rustEngine(module, mod.createGlue, 'wasm-browser');
  };
}

const LOADERS: Record<EngineName, Loader | undefined> = { go: goLoader(), java: javaLoader(), cpp: cppLoader(), rust: rustLoader() };

/** Engines this build can run in the browser, in the catalogue's order. */
export const BROWSER_ENGINES: EngineName[] = ENGINE_NAMES.filter((e) => LOADERS[e]);

/** The engines a view's engine choice names: one engine, or 'all' this build has. */
export function enginesFor(choice: string): EngineName[] {
  return choice === 'all' ? BROWSER_ENGINES : [choice as EngineName];
}

const cache = new Map<EngineName, Promise<SyncEngine>>();

export function loadBrowserEngine(name: EngineName): Promise<SyncEngine> {
  const loader = LOADERS[name];
  if (!loader) return Promise.reject(new Error(`the ${languageOf(name)} engine is not part of this build`));
  let p = cache.get(name);
  if (!p) {
    p = loader();
    // A failed load may succeed later (e.g. a network hiccup on a slow server): do not cache it.
    p.catch(() => cache.delete(name));
    cache.set(name, p);
  }
  return p;
}
