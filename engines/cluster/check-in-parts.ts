// Checks a history longer than the checker takes in one file (checker/lincheck/history.go,
// MaxOperations) by checking groups of keys separately. Sound because the key-value model is
// checked key by key anyway (the checker partitions by key, model.go): a history is
// linearizable exactly when every key's sub-history is, so any grouping of whole keys gives the
// same verdict. A 60 s reset run on a lightly loaded machine records more than 200,000
// operations (Rust: the checker refused the history and the run lost its figures).
import type { HistoryOp, Verdict } from '@replicant/checker/lincheck';

/** What the checker accepts in one history (checker/lincheck/history.go, MaxOperations). */
export const CHECKER_MAX_OPERATIONS = 200_000;

export interface HistoryPart {
  ops: HistoryOp[];
  /** ops[i] is history[indices[i]]: to name a part's suspects by their place in the whole. */
  indices: number[];
}

/**
 * Splits a history into parts of whole keys, each at most `maxOps` operations, keeping every
 * operation's order. Throws when one key alone has more than `maxOps` (it cannot be split).
 */
export function splitByKeys(history: readonly HistoryOp[], maxOps = CHECKER_MAX_OPERATIONS): HistoryPart[] {
  const byKey = new Map<string, number[]>();
  history.forEach((op, i) => {
    const xs = byKey.get(op.key);
    if (xs) xs.push(i);
    else byKey.set(op.key, [i]);
  });
  const groups: number[][] = [];
  let current: number[] = [];
  for (const [key, xs] of byKey) {
    if (xs.length > maxOps) throw new Error(`key ${JSON.stringify(key)} has ${xs.length} operations, more than the checker takes (${maxOps})`);
    if (current.length + xs.length > maxOps) {
      groups.push(current);
      current = [];
    }
    for (const x of xs) current.push(x); // (a spread of 100,000s of arguments overflows the stack)
  }
  if (current.length > 0) groups.push(current);
  return groups.map((g) => {
    const indices = g.sort((a, b) => a - b);
    return { ops: indices.map((i) => history[i]!), indices };
  });
}

/** One verdict for the whole history from its parts' verdicts (in the order of `parts`). */
export function mergeVerdicts(parts: readonly HistoryPart[], verdicts: readonly Verdict[]): Verdict {
  const sum = (f: (v: Verdict) => number) => verdicts.reduce((a, v) => a + f(v), 0);
  const worst = verdicts.some((v) => v.verdict === 'violation') ? 'violation' : verdicts.some((v) => v.verdict === 'unknown') ? 'unknown' : 'linearizable';
  return {
    verdict: worst,
    operations: sum((v) => v.operations),
    checked: sum((v) => v.checked),
    dropped_reads: sum((v) => v.dropped_reads),
    unknown_writes: sum((v) => v.unknown_writes),
    unread_unknown_puts: sum((v) => v.unread_unknown_puts),
    left_out_unknown_writes: sum((v) => v.left_out_unknown_writes),
    values_only: verdicts.some((v) => v.verdict === 'violation' && v.values_only),
    keys: sum((v) => v.keys),
    violating_keys: verdicts.flatMap((v) => v.violating_keys),
    suspect_operations: verdicts.flatMap((v, p) => v.suspect_operations.map((i) => parts[p]!.indices[i]!)),
  };
}

/** Checks `history` with `check` (e.g. the native checker), in parts when it is too long. */
export function checkInParts(history: readonly HistoryOp[], check: (ops: HistoryOp[]) => Verdict, maxOps = CHECKER_MAX_OPERATIONS): Verdict {
  const parts = splitByKeys(history, maxOps);
  if (parts.length === 1) return check(parts[0]!.ops);
  return mergeVerdicts(parts, parts.map((p) => check(p.ops)));
}
