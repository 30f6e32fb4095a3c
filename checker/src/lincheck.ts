// The linearizability checker (Porcupine, compiled from ../lincheck with Go's js/wasm target),
// usable from Node and from a browser worker: the host supplies the compiled module and Go's
// runtime class (wasm_exec.js); this file owns the history format on the TypeScript side.

/** One client operation of a history (docs/linearizability.md, "History format"). */
export interface HistoryOp {
  client: number;
  op: 'get' | 'put' | 'del';
  key: string;
  /** put: the value written; get answered ok: the value read. */
  value?: string;
  call_us: number;
  /** absent when the client never got a reply */
  return_us?: number;
  result: 'ok' | 'not_found' | 'unknown';
}

export interface Verdict {
  verdict: 'linearizable' | 'violation' | 'unknown';
  operations: number;
  checked: number;
  dropped_reads: number;
  unknown_writes: number;
  /** unknown puts whose value no read returned (checked with one stand-in value) */
  unread_unknown_puts: number;
  /** unknown writes the deciding check left out (checker/README.md): only a linearizable verdict
   * leaves any out, and `checked` then counts without them */
  left_out_unknown_writes: number;
  /** a violation shown on the history's puts and value-returning gets alone, which proves it for
   * the whole history (checker/README.md, "The value check"); `checked` then counts those */
  values_only: boolean;
  keys: number;
  violating_keys: string[];
  /** history indices of the operations the longest partial linearization could not place */
  suspect_operations: number[];
}

export interface CheckOutcome {
  verdict: Verdict;
  /** Porcupine's visualisation page, when asked for */
  html?: string;
}

export interface Checker {
  /** Checks a history (operations, or the text of a history file). Bad input throws CheckerError. */
  check(history: readonly HistoryOp[] | string, options?: { html?: boolean }): CheckOutcome;
}

export class CheckerError extends Error {}

interface GoRuntime {
  argv: string[];
  env: Record<string, string>;
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
}
export type GoConstructor = new () => GoRuntime;

interface WasmApi {
  check(text: string, withHtml: boolean): { verdict?: string; html?: string; error?: string };
}

/** Writes operations as a history file: one canonical JSON object per line, fields in a fixed
 * order, so the same history gives the same bytes. */
export function formatHistory(ops: readonly HistoryOp[]): string {
  let out = '';
  for (const o of ops) {
    let line = `{"client":${o.client},"op":"${o.op}","key":${JSON.stringify(o.key)}`;
    if (o.value !== undefined) line += `,"value":${JSON.stringify(o.value)}`;
    line += `,"call_us":${o.call_us}`;
    if (o.return_us !== undefined) line += `,"return_us":${o.return_us}`;
    line += `,"result":"${o.result}"}`;
    out += line + '\n';
  }
  return out;
}

let instances = 0;

/** Starts one checker instance (one Go runtime that serves every check). */
export function createChecker(module: WebAssembly.Module, Go: GoConstructor): Checker {
  const exportName = `__replicant_lincheck_${++instances}`;
  const go = new Go();
  go.argv = ['lincheck', exportName];
  go.env = {};
  const instance = new WebAssembly.Instance(module, go.importObject);
  void go.run(instance); // runs main() until it parks with its export installed
  const api = (globalThis as unknown as Record<string, WasmApi | undefined>)[exportName];
  if (!api) throw new CheckerError('the checker wasm did not install its export');
  return {
    check(history, options = {}) {
      const text = typeof history === 'string' ? history : formatHistory(history);
      const r = api.check(text, options.html === true) as ReturnType<WasmApi['check']> | undefined;
      // The Go runtime inside the wasm exits on a fatal error (out of memory on a history whose
      // search explodes): the call then returns nothing, and every later call would too.
      if (r === undefined) throw new CheckerError(`the checker's Go runtime stopped during the check (out of memory, see its output above) on ${text.split('\n').length - 1} operations`);
      if (r.error !== undefined || r.verdict === undefined) throw new CheckerError(r.error ?? 'check failed');
      const out: CheckOutcome = { verdict: JSON.parse(r.verdict) as Verdict };
      if (r.html !== undefined) out.html = r.html;
      return out;
    },
  };
}
