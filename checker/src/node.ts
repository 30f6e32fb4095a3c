// Node-side loading of the checker's js/wasm build (dist/, made by build.sh).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CheckerError, createChecker, formatHistory, type Checker, type GoConstructor, type HistoryOp, type Verdict } from './lincheck.ts';

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

/**
 * Checks a history with the native CLI (dist/lincheck): all cores, and a time limit after which
 * the verdict is "unknown" — for long native histories, where the wasm build (single-threaded,
 * no timeout) could search for a long time.
 */
export function checkNative(history: readonly HistoryOp[], timeoutS = 120): Verdict {
  const bin = join(CHECKER_DIST, 'lincheck');
  if (!existsSync(bin)) throw new CheckerError(`${bin} is missing; run \`npm run build\` (or bash checker/build.sh) first`);
  const r = spawnSync(bin, ['--timeout-s', String(timeoutS), '-'], { input: formatHistory(history), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status === 2 || r.status === null || !r.stdout) throw new CheckerError(`lincheck: ${r.stderr?.trim() || r.error?.message || `ended by ${r.signal}`}`);
  return JSON.parse(r.stdout) as Verdict;
}
