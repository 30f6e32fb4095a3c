// Takes a measured card of the native harness (`npm run bench -- calibrate`:
// <lang>.alloc_bytes_per_op.<role>.<a|b>, <lang>.cpu_us_per_op.<role>.<a|b>) into a simulator
// model card: allocation becomes measured, per role and operation kind; measured CPU is kept
// beside the card's CPU costs as a cross-check only (it was measured on other hardware than the
// paper's, under other tenants' load).
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { CardParameter, EngineName, ModelCard } from '../api.ts';
import { opAllocKey, ROLES, solveOpSplit, type OpMix } from './alloc.ts';

export const ENGINES = ENGINE_NAMES;
/** YCSB's core workloads the harness measured: A is 50 % reads, B 95 %. */
export const WORKLOAD_A: OpMix = { read_proportion: 0.5 };
export const WORKLOAD_B: OpMix = { read_proportion: 0.95 };

export class MeasuredCardError extends Error {}

/** The measured card's version and the commit it was measured at (from its description). */
export function provenance(measured: ModelCard): string {
  const commit = /commit ([0-9a-f]{7,40})/.exec(measured.description ?? '')?.[1];
  return `measured card ${measured.version}${commit ? `, commit ${commit}` : ''}`;
}

function measuredValue(measured: ModelCard, key: string): number {
  const p: CardParameter | undefined = measured.parameters[key];
  if (!p) throw new MeasuredCardError(`measured card ${measured.version} has no parameter "${key}"`);
  if (typeof p.value !== 'number' || !Number.isFinite(p.value) || p.value < 0) throw new MeasuredCardError(`measured card parameter "${key}" must be a finite number >= 0`);
  return p.value;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const num = (x: number) => String(Math.round(x * 1e4) / 1e4);

/** Replaces the card's assumed allocation (bytes per event and per message byte) with bytes
 * per read and per update operation, per role, solved from the measured workloads A and B.
 * Allocations per event and ns per allocation stay: they are the C++/Rust allocator's CPU. */
export function applyMeasuredAllocation(card: ModelCard, measured: ModelCard): void {
  const from = provenance(measured);
  const pa = WORKLOAD_A.read_proportion;
  const pb = WORKLOAD_B.read_proportion;
  for (const e of ENGINES) {
    for (const role of ROLES) {
      const a = measuredValue(measured, `${e}.alloc_bytes_per_op.${role}.a`);
      const b = measuredValue(measured, `${e}.alloc_bytes_per_op.${role}.b`);
      const s = solveOpSplit(WORKLOAD_A, a, WORKLOAD_B, b);
      const system = `${from}: the native ${e} ${role} allocated A = ${a} B/op on workload A (${num(pa * 100)} % reads) and B = ${b} B/op on workload B (${num(pb * 100)} % reads), 500-byte values, from the engine's own counters (its host's JSON event and effect handling included, not the TCP server's buffers). A = ${num(pa)} r + ${num(1 - pa)} u and B = ${num(pb)} r + ${num(1 - pb)} u give r = (${num(1 - pa)} B - ${num(1 - pb)} A) / ${num(pb - pa)} = ${round1(s.read_bytes)} B and u = (${num(pb)} A - ${num(pa)} B) / ${num(pb - pa)} = ${round1(s.update_bytes)} B${s.clamped ? ` (${s.clamped})` : ''}.`;
      const charged = `Charged once per operation, where it enters the ${role}'s log; it includes everything the operation costs the ${role} (votes, commit rounds).`;
      for (const op of ['read', 'update'] as const) {
        card.parameters[opAllocKey(e, role, op)] = {
          value: round1(op === 'read' ? s.read_bytes : s.update_bytes),
          unit: 'B',
          source: 'measured',
          note: `Heap bytes allocated per ${op} operation on the ${role}. ${system} ${charged}`,
        };
      }
    }
    delete card.parameters[`alloc.${e}.bytes_per_event`];
    delete card.parameters[`alloc.${e}.bytes_per_message_byte`];
  }
}

const CROSS_CHECK = / Cross-check against the native harness \(.*$/;

/** Adds the measured CPU per operation to each engine's CPU cost notes, beside the leader CPU
 * per operation the card takes from the paper (µs on the paper's AWS machines). */
export function annotateMeasuredCpu(card: ModelCard, measured: ModelCard, paperLeaderUsPerOp: Record<EngineName, number>): void {
  const from = provenance(measured);
  for (const e of ENGINES) {
    const v = (role: string, w: string) => measuredValue(measured, `${e}.cpu_us_per_op.${role}.${w}`);
    const leaderA = v('leader', 'a');
    const ratio = leaderA / paperLeaderUsPerOp[e];
    const check = ` Cross-check against the native harness (${from}): the native ${e} leader used ${leaderA} us/op on workload A (${v('leader', 'b')} on B; followers ${v('follower', 'a')} and ${v('follower', 'b')}), ${ratio.toFixed(2)} x the ${paperLeaderUsPerOp[e].toFixed(1)} us/op this card takes from the paper; not used for calibration, because it was measured on a shared 2-core EPYC under other tenants' load, not on the paper's AWS machines.`;
    for (const name of ['in_us', 'out_us', 'step_us']) {
      const p = card.parameters[`cpu.${e}.${name}`];
      if (!p) throw new MeasuredCardError(`model card ${card.version} has no parameter "cpu.${e}.${name}"`);
      p.note = p.note.replace(CROSS_CHECK, '') + check;
    }
  }
}
