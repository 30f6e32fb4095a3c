// Node-side engine loading: native hosts and wasm builds read from each engine's dist/.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AsyncEngine, EngineError, EngineName, SyncEngine, asAsync } from './engine.ts';
import { NativeHost } from './native-host.ts';
import { goEngine } from './go-wasm.ts';
import { rustEngine, type RustGlue } from './rust-wasm.ts';
import { javaJsEngine } from './java-wasm.ts';
import { cppEngine, type CppModuleFactory } from './cpp-wasm.ts';

export const ENGINES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where each engine's build puts its artefacts (see each engine's README). */
export const artefacts = {
  go: {
    host: join(ENGINES_DIR, 'go-wasm/dist/replicant-host'),
    server: join(ENGINES_DIR, 'go-wasm/dist/replicant-server'),
    wasm: join(ENGINES_DIR, 'go-wasm/dist/replicant.wasm'),
    wasmExec: join(ENGINES_DIR, 'go-wasm/dist/wasm_exec.js'),
  },
  rust: {
    host: join(ENGINES_DIR, 'rust-wasm/dist/replicant-host'),
    server: join(ENGINES_DIR, 'rust-wasm/dist/replicant-server'),
    wasm: join(ENGINES_DIR, 'rust-wasm/dist/replicant_wasm_bg.wasm'),
    glue: join(ENGINES_DIR, 'rust-wasm/dist/replicant_wasm.js'),
  },
  java: {
    host: join(ENGINES_DIR, 'java-wasm/dist/replicant-host'),
    server: join(ENGINES_DIR, 'java-wasm/dist/replicant-server'),
    /** TeaVM's JavaScript build: what `wasm-node` runs (Node 20 cannot run WasmGC). */
    js: join(ENGINES_DIR, 'java-wasm/dist/replicant-java.js'),
    /** TeaVM's WebAssembly GC build and its loader: for browsers. */
    wasm: join(ENGINES_DIR, 'java-wasm/dist/replicant-java.wasm'),
    wasmRuntime: join(ENGINES_DIR, 'java-wasm/dist/replicant-java.wasm-runtime.js'),
  },
  cpp: {
    host: join(ENGINES_DIR, 'cpp-wasm/dist/replicant-host'),
    server: join(ENGINES_DIR, 'cpp-wasm/dist/replicant-server'),
    wasm: join(ENGINES_DIR, 'cpp-wasm/dist/replicant.wasm'),
    glue: join(ENGINES_DIR, 'cpp-wasm/dist/replicant.mjs'),
  },
} as const;

function need(path: string, engine: string): string {
  if (!existsSync(path)) throw new EngineError(engine, `${path} is missing; run \`npm run build\` first`);
  return path;
}

/** An environment override such as REPLICANT_SERVER_CPP=/path/to/tsan/replicant-server lets
 * the shared tests run a sanitizer or debug build of one engine's server or host. */
function override(kind: 'SERVER' | 'HOST', name: EngineName): string | undefined {
  return process.env[`REPLICANT_${kind}_${name.toUpperCase()}`] || undefined;
}

/** The command line that runs an engine's native TCP server (docs/protocol.md, "Native servers"). */
export function serverCommand(name: EngineName): string[] {
  return [need(override('SERVER', name) ?? artefacts[name].server, name)];
}

export function nativeEngine(name: EngineName): AsyncEngine {
  return new NativeHost(name, need(override('HOST', name) ?? artefacts[name].host, name));
}

export async function wasmNodeEngine(name: EngineName): Promise<SyncEngine> {
  switch (name) {
    case 'go': {
      const bytes = readFileSync(need(artefacts.go.wasm, 'go'));
      await import(pathToFileURL(need(artefacts.go.wasmExec, 'go')).href);
      const Go = (globalThis as unknown as { Go: ConstructorParameters<typeof Object>[0] }).Go;
      return goEngine(new WebAssembly.Module(bytes), Go as never, 'wasm-node');
    }
    case 'rust': {
      const bytes = readFileSync(need(artefacts.rust.wasm, 'rust'));
      const glue = (await import(pathToFileURL(need(artefacts.rust.glue, 'rust')).href)) as {
        createGlue: () => RustGlue;
      };
      return rustEngine(new WebAssembly.Module(bytes), glue.createGlue, 'wasm-node');
    }
    case 'java':
      // In Node the Java core runs as TeaVM's JavaScript build, not as wasm (see java-wasm.ts).
      return javaJsEngine(readFileSync(need(artefacts.java.js, 'java'), 'utf8'), 'wasm-node');
    case 'cpp': {
      const bytes = readFileSync(need(artefacts.cpp.wasm, 'cpp'));
      const glue = (await import(pathToFileURL(need(artefacts.cpp.glue, 'cpp')).href)) as { default: CppModuleFactory };
      return cppEngine(new WebAssembly.Module(bytes), glue.default, 'wasm-node');
    }
    default:
      throw new EngineError(name, 'no wasm build for this engine yet');
  }
}

/** Any engine on a Node-side target, through the asynchronous interface. */
export async function loadEngine(name: EngineName, target: 'native' | 'wasm-node'): Promise<AsyncEngine> {
  return target === 'native' ? nativeEngine(name) : asAsync(await wasmNodeEngine(name));
}
