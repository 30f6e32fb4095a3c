// CPU by operation kind (candidate card 1.10.0): the native harness measures each node's CPU per
// operation under workloads A (50 % reads) and B (95 %), which, as for allocation, gives two
// equations in the CPU of a read and of an update. The card keeps the paper's workload-A CPU per
// operation (its calibration) and takes only the measured ratio of a read's CPU to an update's:
// each role's operation-kind factors (cpu.<engine>.<role>_<op>_factor) scale the parallel CPU of
// the events that carry one operation so that, in the model, a read costs that role the measured
// share of an update while the workload-A mean stays what the calibration set.
import type { EngineName, ModelCard } from '../api.ts';
import { param } from '../models/card.ts';
import { ROLES, solveOpSplit, type Role } from '../models/alloc.ts';
import { ENGINES, provenance, WORKLOAD_A, WORKLOAD_B } from '../models/measured-card.ts';
import { opCpuFactorKey } from '../models/node-model.ts';
import { wireSizes, type WireSizes } from '../run/sizes.ts';

export class OpCpuError extends Error {}

/** A role's model CPU for one operation of each kind (µs): `scaled` is what the factor
 * multiplies (the events that say which kind they carry), `fixed` the rest (the Log-mutex steps,
 * the allocator, the votes and the reply the leader sends when the first vote arrives). */
export interface OpCpuParts {
  scaled: { read: number; update: number };
  fixed: { read: number; update: number };
}

/** The model's CPU per operation on `role` (fast and exact modes charge the same): per event
 * in_us or out_us plus per_kib_us per KiB moved, the step under the Log mutex, the allocator. */
export function modelOpCpu(card: ModelCard, e: EngineName, role: Role, sizes: WireSizes): OpCpuParts {
  const c = (name: string) => param(card, `cpu.${e}.${name}`);
  const nsPerAlloc = card.parameters[`alloc.${e}.ns_per_allocation`] ? param(card, `alloc.${e}.ns_per_allocation`) : 0;
  const allocPerEventUs = (param(card, `alloc.${e}.allocs_per_event`) * nsPerAlloc) / 1000;
  const kib = (bytes: number) => (c('per_kib_us') * bytes) / 1024;
  const inUs = (bytes: number) => c('in_us') + kib(bytes);
  const outUs = (bytes: number) => c('out_us') + kib(bytes);
  const parts = (op: 'read' | 'update') => {
    const s = sizes[op];
    if (role === 'leader') {
      // the client command: read it, send two accept requests; two votes in, the reply out
      return { scaled: inUs(s.request_line) + 2 * outUs(s.accept_request), fixed: 3 * c('step_us') + 3 * allocPerEventUs + 2 * inUs(s.accept_response) + outUs(s.reply_line) };
    }
    // the accept request in, the vote out
    return { scaled: inUs(s.accept_request) + outUs(s.accept_response), fixed: c('step_us') + allocPerEventUs };
  };
  const r = parts('read');
  const u = parts('update');
  return { scaled: { read: r.scaled, update: u.scaled }, fixed: { read: r.fixed, update: u.fixed } };
}

export interface OpCpuFactorSolution {
  read_factor: number;
  update_factor: number;
  /** The model's CPU per read and per update (µs) with the factors. */
  read_us: number;
  update_us: number;
}

/**
 * The factors f_r, f_u on the scaled parts that make (f_r S_r + F_r) / (f_u S_u + F_u) equal
 * the measured read/update ratio `ratio` while workload A's mean of the scaled parts stays:
 * p f_r S_r + (1 − p) f_u S_u = p S_r + (1 − p) S_u, p being A's read proportion. Throws when
 * no positive factors give that ratio (the fixed part alone is already too far from it).
 */
export function solveOpCpuFactors(parts: OpCpuParts, ratio: number, readProportionA = WORKLOAD_A.read_proportion): OpCpuFactorSolution {
  if (!(ratio > 0) || !Number.isFinite(ratio)) throw new OpCpuError(`the read/update CPU ratio must be a positive finite number, not ${ratio}`);
  const p = readProportionA;
  const { scaled: S, fixed: F } = parts;
  const mean = p * S.read + (1 - p) * S.update;
  const b = (mean - p * (ratio * F.update - F.read)) / (p * ratio + 1 - p);
  const a = ratio * (b + F.update) - F.read;
  if (!(a > 0) || !(b > 0)) throw new OpCpuError(`a read/update CPU ratio of ${ratio.toFixed(3)} needs a non-positive scaled CPU (read ${a.toFixed(2)} us, update ${b.toFixed(2)} us): the unscaled part alone differs more`);
  return { read_factor: a / S.read, update_factor: b / S.update, read_us: a + F.read, update_us: b + F.update };
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const us1 = (x: number) => x.toFixed(1);

/** Sets cpu.<engine>.<role>_<op>_factor for `engines` from the measured card's CPU per
 * operation (workloads A and B), with the arithmetic in each note. */
export function applyMeasuredOpCpu(card: ModelCard, measured: ModelCard, engines: readonly EngineName[] = ENGINES, valueBytes = 500, keyBytes = 23): void {
  const from = provenance(measured);
  const sizes = wireSizes(keyBytes, valueBytes);
  for (const e of engines) {
    for (const role of ROLES) {
      const get = (w: 'a' | 'b') => {
        const key = `${e}.cpu_us_per_op.${role}.${w}`;
        const v = measured.parameters[key]?.value;
        if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new OpCpuError(`measured card ${measured.version} has no positive "${key}"`);
        return v;
      };
      const A = get('a');
      const B = get('b');
      const split = solveOpSplit(WORKLOAD_A, A, WORKLOAD_B, B);
      if (split.clamped) throw new OpCpuError(`${e} ${role}: the measured CPU per op (A ${A}, B ${B} us) gives no positive read and update CPU (${split.clamped})`);
      const ratio = split.read_bytes / split.update_bytes;
      const parts = modelOpCpu(card, e, role, sizes);
      let sol: OpCpuFactorSolution;
      try {
        sol = solveOpCpuFactors(parts, ratio);
      } catch (err) {
        throw new OpCpuError(`${e} ${role} (${from}: A ${A}, B ${B} us/op): ${(err as Error).message}`);
      }
      const meanA = WORKLOAD_A.read_proportion * (parts.scaled.read + parts.fixed.read) + (1 - WORKLOAD_A.read_proportion) * (parts.scaled.update + parts.fixed.update);
      const derivation = `From ${from}: the native ${e} ${role} used A = ${A} us/op on workload A (50 % reads) and B = ${B} us/op on workload B (95 % reads); A = 0.5 r + 0.5 u and B = 0.95 r + 0.05 u give r = ${us1(split.read_bytes)} us per read and u = ${us1(split.update_bytes)} us per update, a ratio r/u = ${ratio.toFixed(4)}. Only the ratio is taken (the measurement ran on a shared 2-core machine, not the paper's AWS machines, and includes the runtime's GC, which the model charges apart from this CPU): the card's workload-A CPU per op on the ${role} (${us1(meanA)} us at ${valueBytes}-byte values, from the paper's calibration) is kept, and the ${role}'s CPU of the events that carry one operation (${role === 'leader' ? 'the client command in and its two accept requests out' : 'the accept request in and the vote out'}; ${us1(parts.scaled.read)} us for a read, ${us1(parts.scaled.update)} for an update) is scaled by ${round4(sol.read_factor)} for a read and ${round4(sol.update_factor)} for an update, so a read costs ${us1(sol.read_us)} us and an update ${us1(sol.update_us)} (ratio ${ratio.toFixed(4)}), the rest (${role === 'leader' ? 'three Log-mutex steps, the allocator, the two votes and the reply' : 'the Log-mutex step and the allocator'}: ${us1(parts.fixed.read)} and ${us1(parts.fixed.update)} us) unscaled (sim/src/calibrate/op-cpu.ts). Not fitted to the paper.`;
      for (const op of ['read', 'update'] as const) {
        card.parameters[opCpuFactorKey(e, `${role}_${op}`)] = {
          value: round4(op === 'read' ? sol.read_factor : sol.update_factor),
          unit: 'x',
          source: 'measured',
          note: `Multiplies the parallel CPU of the ${role}'s events for one ${op} operation. ${derivation}`,
        };
      }
    }
  }
}
