// The acknowledged-write check against a final state, shared by the simulator's torture runs
// and the native nemesis: a write that was acknowledged must not be missing from the final state
// when the write that produced that state had already finished before it began.
import type { HistoryOp } from './lincheck.ts';

export interface LostWrite {
  /** index into the history */
  op: number;
  key: string;
  /** the final value of the key, undefined when absent */
  final: string | undefined;
  reason: string;
}

/**
 * @param history operations with unique put values (as the test clients write them)
 * @param final each key's final value (undefined: absent) as the replicas hold it at the end
 */
export function lostAcknowledgedWrites(history: readonly HistoryOp[], final: ReadonlyMap<string, string | undefined>): LostWrite[] {
  const out: LostWrite[] = [];
  for (const [key, finalValue] of final) {
    const writes = history.map((op, id) => ({ op, id })).filter(({ op }) => op.key === key && op.op !== 'get');
    let producerEnd: number; // the latest the write that produced the final state can have ended
    if (finalValue !== undefined) {
      const w = writes.find(({ op }) => op.op === 'put' && op.value === finalValue);
      if (!w) {
        out.push({ op: -1, key, final: finalValue, reason: `final value "${finalValue}" of ${key} was written by no client` });
        continue;
      }
      producerEnd = w.op.return_us ?? Infinity;
    } else {
      const dels = writes.filter(({ op }) => op.op === 'del');
      producerEnd = dels.length === 0 ? -1 : Math.max(...dels.map(({ op }) => op.return_us ?? Infinity));
    }
    for (const { op, id } of writes) {
      if (op.result === 'unknown' || op.call_us <= producerEnd) continue;
      if (finalValue !== undefined && op.op === 'put' && op.value === finalValue) continue;
      if (finalValue === undefined && op.op === 'del') continue; // an absent key is what it left
      out.push({
        op: id,
        key,
        final: finalValue,
        reason: `acknowledged ${op.op} #${id} of ${key} began after the write that produced the final state (${finalValue === undefined ? 'absent' : `"${finalValue}"`}) had finished`,
      });
    }
  }
  return out;
}
