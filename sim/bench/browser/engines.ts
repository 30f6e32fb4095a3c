// Browser-side engine loading for the simulator's own Chromium checks (determinism, speed):
// fetches each engine's build from the test server (/repo/ is engines/), inside a classic Web
// Worker. The web lab has its own loaders (web/src/engines.ts); these need no bundler features.
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';
import { goEngine } from '@replicant/engines/loader/go-wasm';
import { rustEngine, type RustGlue } from '@replicant/engines/loader/rust-wasm';
import { javaWasmGcEngine } from '@replicant/engines/loader/java-wasm';
import { cppEngine, type CppModuleFactory } from '@replicant/engines/loader/cpp-wasm';

declare function importScripts(...urls: string[]): void;

export async function loadEngine(name: EngineName): Promise<SyncEngine> {
  switch (name) {
    case 'go': {
      if (!(globalThis as { Go?: unknown }).Go) importScripts('/repo/go-wasm/dist/wasm_exec.js');
      const module = await WebAssembly.compileStreaming(fetch('/repo/go-wasm/dist/replicant.wasm'));
      return goEngine(module, (globalThis as unknown as { Go: never }).Go, 'wasm-browser');
    }
    case 'rust': {
      const glueUrl = '/repo/rust-wasm/dist/replicant_wasm.js'; // a variable: not bundled
      const glue = (await import(/* @vite-ignore */ glueUrl)) as { createGlue: () => RustGlue };
      const module = await WebAssembly.compileStreaming(fetch('/repo/rust-wasm/dist/replicant_wasm_bg.wasm'));
      return rustEngine(module, glue.createGlue, 'wasm-browser');
    }
    case 'java': {
      importScripts('/repo/java-wasm/dist/replicant-java.wasm-runtime.js');
      const bytes = await (await fetch('/repo/java-wasm/dist/replicant-java.wasm')).arrayBuffer();
      return javaWasmGcEngine(bytes);
    }
    case 'cpp': {
      const glueUrl = '/repo/cpp-wasm/dist/replicant.mjs';
      const [glue, module] = await Promise.all([
        import(/* @vite-ignore */ glueUrl) as Promise<{ default: CppModuleFactory }>,
        WebAssembly.compileStreaming(fetch('/repo/cpp-wasm/dist/replicant.wasm')),
      ]);
      return cppEngine(module, glue.default, 'wasm-browser');
    }
  }
}
