// What a torture run must satisfy, besides Porcupine's verdict: no acknowledged write lost in
// the final state, replicas that executed the same prefix hold the same data, no core reported
// a safety violation, and the cluster served again within the bound after the faults ended.
import type { HistoryOp, Verdict } from '@replicant/checker/lincheck';
import { lostAcknowledgedWrites } from '@replicant/checker/final-state';
import type { Scenario } from './scenario.ts';
import type { TortureRun } from './run.ts';

export interface Judgement {
  ok: boolean;
  /** no safety problem: linearizable, no lost acknowledged write, no divergence, no core violation */
  safe: boolean;
  /** served again within the bound after the faults ended */
  live: boolean;
  /** one sentence per problem, safety first */
  problems: string[];
  lost_writes: number;
}

export function judge(s: Scenario, run: TortureRun, verdict: Verdict): Judgement {
  const problems: string[] = [];
  if (verdict.verdict === 'violation')
    problems.push(`not linearizable (Porcupine): keys ${verdict.violating_keys.join(', ')}; suspect operations ${verdict.suspect_operations.map((i) => '#' + i).join(' ')}`);
  else if (verdict.verdict !== 'linearizable') problems.push(`Porcupine could not decide (${verdict.verdict})`);
  const lost = lostWrites(s, run);
  for (const l of lost) problems.push(l);
  problems.push(...divergence(run));
  for (const nd of run.nodes) if (nd.violations > 0) problems.push(`n${nd.node} traced ${nd.violations} safety violation(s)`);
  const safe = problems.length === 0;
  if (run.recovered_after_us === null)
    problems.push(`liveness: the cluster did not answer a read of every key after the faults ended (run stopped at ${fmtMs(run.end_us)})`);
  else if (run.recovered_after_us > s.liveness_bound_us)
    problems.push(`liveness: served again ${fmtMs(run.recovered_after_us)} after the faults ended, bound ${fmtMs(s.liveness_bound_us)}`);
  return { ok: problems.length === 0, safe, live: !problems.some((p) => p.startsWith('liveness')), problems, lost_writes: lost.length };
}

/** Acknowledged writes the final state (the most advanced node's store) contradicts. */
export function lostWrites(s: Scenario, run: TortureRun): string[] {
  const ref = reference(run);
  if (!ref) return ['no node is up at the end to hold the final state'];
  const final = new Map(s.keys.map((k) => [k, ref.kv[k]] as const));
  return lostAcknowledgedWrites(run.history, final).map((l) =>
    l.op < 0 ? `final state of ${l.key} on n${ref.node} is "${l.final}", which no client wrote`
      : `lost acknowledged write #${l.op} ${describe(run.history[l.op]!)}: ${l.key} ends ${l.final === undefined ? 'absent' : `as "${l.final}"`} on n${ref.node}, written before it began`);
}

function divergence(run: TortureRun): string[] {
  const out: string[] = [];
  const up = run.nodes.filter((n) => n.up);
  for (let i = 0; i < up.length; i++)
    for (let j = i + 1; j < up.length; j++) {
      const a = up[i]!;
      const b = up[j]!;
      if (a.last_executed === b.last_executed && a.digest !== b.digest)
        out.push(`replicas diverge: n${a.node} and n${b.node} executed ${a.last_executed} commands but hold different data (${a.digest} vs ${b.digest})`);
    }
  return out;
}

function reference(run: TortureRun) {
  let best: TortureRun['nodes'][number] | undefined;
  for (const nd of run.nodes) if (nd.up && (!best || nd.last_executed > best.last_executed)) best = nd;
  return best;
}

export function describe(op: HistoryOp): string {
  const call = op.op === 'put' ? `put(${op.key}, "${op.value}")` : `${op.op}(${op.key})`;
  const res = op.result === 'unknown' ? '?' : op.op === 'get' && op.result === 'ok' ? `"${op.value}"` : op.result;
  return `${call} -> ${res} [${fmtMs(op.call_us)}, ${op.return_us === undefined ? '…' : fmtMs(op.return_us)}] client ${op.client}`;
}

export function fmtMs(us: number): string {
  return `${(us / 1000).toFixed(3)} ms`;
}
