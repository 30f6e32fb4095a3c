// The client history of a step session, read from its trace, for the linearizability check:
// every client command becomes one operation from the moment it reached its node to the reply.
// A command turned away on arrival (a follower's redirect, "retry" with no leader, a bad
// command) never entered a log and is left out; a later "retry" or "leader is" from a leader
// that gave up on it, or no reply at all, is an unknown outcome (a write may still be chosen).
import type { TraceEntry } from '@replicant/sim/api';
import type { HistoryOp } from '@replicant/checker/lincheck';

export interface SessionHistory {
  ops: HistoryOp[];
  /** the step at which each operation's command reached its node */
  steps: number[];
  /** commands turned away on arrival (not operations) */
  rejected: number;
}

interface Reply {
  request_id: number;
  result: string;
  value?: string;
}

const COMMAND = /^(get|del) (\S+)$|^put (\S+) (.*)$/;

function replies(effects: string): Reply[] {
  const out: Reply[] = [];
  for (const line of effects.split('\n')) {
    if (!line.startsWith('{"type":"reply"')) continue;
    try {
      out.push(JSON.parse(line) as Reply);
    } catch {
      // a core's effects are canonical JSON; anything else is not a reply we can read
    }
  }
  return out;
}

export function historyFromTrace(trace: readonly TraceEntry[]): SessionHistory {
  const ops: HistoryOp[] = [];
  const steps: number[] = [];
  const open = new Map<number, number>(); // request id → index in ops
  let rejected = 0;
  for (const e of trace) {
    let arrived: number | null = null;
    if (e.event.startsWith('{"type":"client"')) {
      let ev: { request_id: number; line: string };
      try {
        ev = JSON.parse(e.event) as { request_id: number; line: string };
      } catch {
        continue;
      }
      const m = COMMAND.exec(ev.line);
      const first = replies(e.effects).find((r) => r.request_id === ev.request_id);
      if (!m || (first && first.result !== 'ok' && first.result !== 'not_found')) {
        rejected++;
        continue;
      }
      const op: HistoryOp = m[1]
        ? { client: ev.request_id, op: m[1] as 'get' | 'del', key: m[2]!, call_us: Math.floor(e.t_us), result: 'unknown' }
        : { client: ev.request_id, op: 'put', key: m[3]!, value: m[4]!, call_us: Math.floor(e.t_us), result: 'unknown' };
      open.set(ev.request_id, ops.length);
      ops.push(op);
      steps.push(e.step);
      arrived = ev.request_id;
    }
    for (const r of replies(e.effects)) {
      const i = open.get(r.request_id);
      if (i === undefined) continue;
      const op = ops[i]!;
      open.delete(r.request_id);
      if (r.result === 'ok' || r.result === 'not_found') {
        op.result = op.op === 'put' ? 'ok' : (r.result as 'ok' | 'not_found');
        op.return_us = Math.ceil(e.t_us);
        if (op.op === 'get' && r.result === 'ok') op.value = r.value ?? '';
      } else if (arrived !== r.request_id) {
        op.result = 'unknown'; // a leader gave up on a command already in its log
      }
    }
  }
  return { ops, steps, rejected };
}

/** One operation in words (the Cluster view's history lists: the check panel and the torture replay). */
export function describeOperation(op: HistoryOp): string {
  const call = op.op === 'put' ? `put ${op.key} ${op.value}` : `${op.op} ${op.key}`;
  const res = op.result === 'unknown' ? 'no answer (unknown)' : op.op === 'get' && op.result === 'ok' ? `"${op.value}"` : op.result;
  return `${call} → ${res}`;
}
