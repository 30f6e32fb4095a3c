// Heap allocation per client operation, by role and operation kind (card group "alloc").
// The native harness measures bytes allocated per operation on the leader and on a follower
// under two read/update mixes; a read and an update allocate differently, so the two mixes give
// two equations in the per-read and per-update bytes. The simulator charges a node these bytes
// once per operation, where the operation enters that node's log.
import type { EngineName, ModelCard } from '../api.ts';
import { langParam } from './card.ts';

export type Role = 'leader' | 'follower';
export const ROLES: readonly Role[] = ['leader', 'follower'];

export interface OpMix {
  read_proportion: number; // 0.5 for YCSB A, 0.95 for B
}

export interface OpSplit {
  read_bytes: number;
  update_bytes: number;
  /** Set when the exact solution was negative and had to be clamped: says what was done. */
  clamped: string | null;
}

/** Bytes per read op and per update op from the measured bytes per op of two mixes:
 * bytes_x = p_x · read + (1 − p_x) · update. A negative solution (measurement noise larger
 * than the read/update difference) is clamped to 0 and the other kind set so that the first
 * mix — the one the CPU calibration runs — keeps its measured mean. */
export function solveOpSplit(mixX: OpMix, bytesX: number, mixY: OpMix, bytesY: number): OpSplit {
  const px = mixX.read_proportion;
  const py = mixY.read_proportion;
  if (![px, py, bytesX, bytesY].every(Number.isFinite)) throw new RangeError('read proportions and bytes per op must be finite numbers');
  if (px < 0 || px > 1 || py < 0 || py > 1) throw new RangeError(`read proportions must be in [0, 1]: ${px}, ${py}`);
  if (bytesX < 0 || bytesY < 0) throw new RangeError(`bytes per op cannot be negative: ${bytesX}, ${bytesY}`);
  const det = px - py; // px·(1−py) − py·(1−px)
  if (Math.abs(det) < 1e-9) throw new RangeError('the two mixes have the same read proportion: read and update bytes cannot be told apart');
  // Rounding leaves a kind that allocates nothing a hair below zero: that is no clamp.
  const tiny = 1e-9 * Math.max(1, bytesX, bytesY);
  const read = zeroIfTiny((bytesX * (1 - py) - bytesY * (1 - px)) / det, tiny);
  const update = zeroIfTiny((px * bytesY - py * bytesX) / det, tiny);
  if (read < 0) {
    return { read_bytes: 0, update_bytes: px < 1 ? bytesX / (1 - px) : 0, clamped: `exact solution had ${round(read)} B per read; clamped to 0 and update set to keep the ${pct(px)} % read mix at its measured ${round(bytesX)} B/op` };
  }
  if (update < 0) {
    return { read_bytes: px > 0 ? bytesX / px : 0, update_bytes: 0, clamped: `exact solution had ${round(update)} B per update; clamped to 0 and read set to keep the ${pct(px)} % read mix at its measured ${round(bytesX)} B/op` };
  }
  return { read_bytes: read, update_bytes: update, clamped: null };
}

function zeroIfTiny(x: number, tiny: number): number {
  return Math.abs(x) <= tiny ? 0 : x;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

function pct(p: number): number {
  return Math.round(p * 1000) / 10;
}

/** The card key of a node's bytes per operation of a kind, e.g. alloc.go.leader_bytes_per_read_op. */
export function opAllocKey(engine: EngineName, role: Role, op: 'read' | 'update'): string {
  return `alloc.${engine}.${role}_bytes_per_${op}_op`;
}

export interface AllocCosts {
  leader_bytes_per_read_op: number;
  leader_bytes_per_update_op: number;
  follower_bytes_per_read_op: number;
  follower_bytes_per_update_op: number;
  /** Allocations per engine event: the allocator's CPU (C++, Rust). */
  allocs_per_event: number;
}

export function allocCosts(card: ModelCard, e: EngineName): AllocCosts {
  return {
    leader_bytes_per_read_op: langParam(card, 'alloc', e, 'leader_bytes_per_read_op'),
    leader_bytes_per_update_op: langParam(card, 'alloc', e, 'leader_bytes_per_update_op'),
    follower_bytes_per_read_op: langParam(card, 'alloc', e, 'follower_bytes_per_read_op'),
    follower_bytes_per_update_op: langParam(card, 'alloc', e, 'follower_bytes_per_update_op'),
    allocs_per_event: langParam(card, 'alloc', e, 'allocs_per_event'),
  };
}

/** Bytes a node allocates for one operation of a kind in a role. */
export function opBytes(a: AllocCosts, role: Role, op: 'read' | 'update'): number {
  if (role === 'leader') return op === 'read' ? a.leader_bytes_per_read_op : a.leader_bytes_per_update_op;
  return op === 'read' ? a.follower_bytes_per_read_op : a.follower_bytes_per_update_op;
}
