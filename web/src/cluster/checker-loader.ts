// Porcupine compiled to WebAssembly (checker/), loaded in a worker on first use: the
// linearizability check's worker and the engine worker's torture replays both use it.
import { createChecker, type Checker, type GoConstructor } from '@replicant/checker/lincheck';

const WASM = import.meta.glob('@replicant/checker/dist/lincheck.wasm', { query: '?url', import: 'default' }) as Record<string, () => Promise<string>>;
const GLUE = import.meta.glob('@replicant/checker/dist/wasm_exec.js');

export async function loadBrowserChecker(): Promise<Checker> {
  const wasm = Object.values(WASM)[0];
  const glue = Object.values(GLUE)[0];
  if (!wasm || !glue) throw new Error('the checker is not part of this build (run npm run build)');
  const [url] = await Promise.all([wasm(), glue()]); // wasm_exec.js installs globalThis.Go
  const module = await WebAssembly.compileStreaming(fetch(url));
  return createChecker(module, (globalThis as unknown as { Go: GoConstructor }).Go);
}
