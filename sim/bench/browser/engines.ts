// Browser-side engine loading for the simulator's own Chromium checks (determinism, speed):
// fetches each engine's wasm build from the test server. The web lab has its own loaders
// (web/src/engines.ts); this one needs no bundler features.
import type { EngineName, SyncEngine } from '../../../engines/loader/engine.ts';
import { goEngine } from '../../../engines/loader/go-wasm.ts';

export async function loadEngine(name: EngineName): Promise<SyncEngine> {
  switch (name) {
    case 'go': {
      if (!(globalThis as { Go?: unknown }).Go) await import(/* @vite-ignore */ new URL('/engines/go/wasm_exec.js', location.href).href);
      const module = await WebAssembly.compileStreaming(fetch('/engines/go/replicant.wasm'));
      return goEngine(module, (globalThis as unknown as { Go: never }).Go, 'wasm-browser');
    }
    default:
      throw new Error(`no browser loader for the ${name} engine in this checkout`);
  }
}
