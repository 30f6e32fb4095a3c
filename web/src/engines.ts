// Loads the engines' wasm builds in the browser, on demand (each engine is its own chunk).
import type { EngineName, SyncEngine } from '../../engines/loader/engine.ts';

export async function loadBrowserEngine(name: EngineName): Promise<SyncEngine> {
  switch (name) {
    case 'go': {
      const [{ goEngine }, { default: wasmUrl }] = await Promise.all([
        import('../../engines/loader/go-wasm.ts'),
        import('../../engines/go-wasm/dist/replicant.wasm?url'),
        import('../../engines/go-wasm/dist/wasm_exec.js'),
      ]);
      const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
      const Go = (globalThis as unknown as { Go: never }).Go;
      return goEngine(module, Go, 'wasm-browser');
    }
    case 'cpp': {
      const [{ cppEngine }, { default: factory }, { default: wasmUrl }] = await Promise.all([
        import('../../engines/loader/cpp-wasm.ts'),
        import('../../engines/cpp-wasm/dist/replicant.mjs'),
        import('../../engines/cpp-wasm/dist/replicant.wasm?url'),
      ]);
      const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
      return cppEngine(module, factory, 'wasm-browser');
    }
    default:
      throw new Error(`the ${name} engine is not available in the browser yet`);
  }
}
