// Node-side loading of the checker's js/wasm build (dist/, made by build.sh).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CheckerError, createChecker, type Checker, type GoConstructor } from './lincheck.ts';

export const CHECKER_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

let cached: Checker | undefined;

/** The checker, loaded once per process. */
export async function loadChecker(): Promise<Checker> {
  if (cached) return cached;
  const wasm = join(CHECKER_DIST, 'lincheck.wasm');
  const exec = join(CHECKER_DIST, 'wasm_exec.js');
  for (const p of [wasm, exec])
    if (!existsSync(p)) throw new CheckerError(`${p} is missing; run \`npm run build\` (or bash checker/build.sh) first`);
  await import(pathToFileURL(exec).href);
  const Go = (globalThis as unknown as { Go?: GoConstructor }).Go;
  if (!Go) throw new CheckerError('wasm_exec.js did not install Go');
  cached = createChecker(new WebAssembly.Module(readFileSync(wasm)), Go);
  return cached;
}
