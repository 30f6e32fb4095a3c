// The seeds whose histories took the checker longest in a torture run: a chunk that is slow in
// Porcupine then names its seed (docs/reliability.md, "The slow Porcupine seed in 5501–5550").

export interface SlowCheck {
  seed: number;
  check_s: number;
  operations: number;
  unknown_writes: number;
}

/** How many of the slowest checks a report keeps. */
export const SLOWEST_CHECKS_KEPT = 5;

/** Adds one seed's check to `slowest`, which keeps the SLOWEST_CHECKS_KEPT slowest, slowest first. */
export function noteSlowCheck(slowest: SlowCheck[], check: SlowCheck): void {
  slowest.push({ ...check, check_s: Number(check.check_s.toFixed(3)) });
  slowest.sort((a, b) => b.check_s - a.check_s);
  slowest.length = Math.min(slowest.length, SLOWEST_CHECKS_KEPT);
}
