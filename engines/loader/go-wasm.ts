// Loads the Go core's js/wasm build. Every node gets its own Go runtime instance (its own
// linear memory and garbage collector, like a process); all share one compiled module.
import { EngineError, NodeConfig, SyncEngine, SyncNode } from './engine.ts';

interface GoExports {
  create(configJson: string): { handle?: number; error?: string };
  step(handle: number, eventJson: string): string | undefined;
  inspect(handle: number): string | undefined;
  stats(handle: number): string | undefined;
  destroy(handle: number): void;
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
      return {
        step: (e) => check(api.step(handle, e), 'step'),
        inspect: () => check(api.inspect(handle), 'inspect'),
        stats: () => check(api.stats(handle), 'stats'),
        destroy: () => {
          api.destroy(handle);
          delete g[exportName]; // lets the runtime instance be collected
        },
      };
    },
    close() {},
  };
}
