import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT_TOTAL, heldEntries, heldEntriesAllowance } from './held-entries.ts';
import { parseStampedStatusLines } from './node-status.ts';
import type { StampedStatus } from './catch-up-timing.ts';

// The Go leader's last three status lines in the run that failed on the old allowance
// (docs/reliability.md, "One stopped follower", 11:05 UTC): log bound 4,096, commit interval 150 ms
const recorded = parseStampedStatusLines(readFileSync(join(import.meta.dirname, 'testdata/stall-go-8946.log'), 'utf8'));
const LOG_BOUND = 4096;
const COMMIT_INTERVAL_MS = 150;
// Every status line of the Go leader up to the judged one in a run of this stop that came within
// 115 entries of a rule that took the rate of the last status interval alone (14:00 UTC)
const nearMiss = parseStampedStatusLines(readFileSync(join(import.meta.dirname, 'testdata/stall-go-7008.log'), 'utf8'));
/** What stall.test.ts allowed before: the bound plus a constant 4,096. */
const OLD_ALLOWANCE = LOG_BOUND + 4096;

/** A leader whose gle froze at `gle` while it executed `perS` entries a second for `seconds`. */
function stoppedTrimming(gle: number, perS: number, seconds: number): StampedStatus[] {
  return Array.from({ length: seconds + 1 }, (_, k) => {
    const executed = gle + perS * k;
    const status = { last_index: executed + 8, last_executed: executed, global_last_executed: gle, timer_late_max_ms: 2 };
    return { atMs: 1_000_000 + 1000 * k, status } as unknown as StampedStatus;
  });
}

describe('the held-entries allowance while one follower is stopped', () => {
  it('admits the recorded Go case (8,946 held at ~32,000 entries a second), which the old constant refused', () => {
    const at = recorded.length - 1;
    const held = heldEntries(recorded[at]!);
    expect(held).toBe(8946);
    expect(held).toBeGreaterThan(OLD_ALLOWANCE); // the failure of 11:05
    const a = heldEntriesAllowance(recorded, at, LOG_BOUND, COMMIT_INTERVAL_MS);
    expect(a.entriesPerS).toBeGreaterThan(31_000);
    expect(a.entriesPerS).toBeLessThan(33_000);
    expect(held).toBeLessThanOrEqual(a.allowedEntries);
    // and it is the bound plus one late commit interval at that rate plus the in-flight limit
    expect(a.allowedEntries).toBe(LOG_BOUND + Math.ceil((a.entriesPerS * (COMMIT_INTERVAL_MS + 13)) / 1000) + MAX_IN_FLIGHT_TOTAL);
  });

  it("takes the fastest status interval's rate, not the last one's", () => {
    const at = nearMiss.length - 1;
    expect(heldEntries(nearMiss[at]!)).toBe(7008);
    const last = nearMiss[at]!;
    const before = nearMiss[at - 1]!;
    const lastRate = (last.status.last_executed - before.status.last_executed) / ((last.atMs - before.atMs) / 1000);
    const a = heldEntriesAllowance(nearMiss, at, LOG_BOUND, COMMIT_INTERVAL_MS);
    expect(a.entriesPerS).toBeGreaterThan(lastRate * 1.2);
    expect(heldEntries(last)).toBeLessThanOrEqual(a.allowedEntries);
  });

  it('still refuses a leader that stopped trimming, fast or slow (once it is past the bound)', () => {
    // (a slow one holds fewer than the bound for a while, as the bound allows: 50 a second takes 100 s)
    for (const [perS, seconds] of [[32_000, 20], [1000, 20], [50, 200]] as const) {
      const lines = stoppedTrimming(89_537, perS, seconds);
      const at = lines.length - 1;
      expect(heldEntries(lines[at]!), `${perS} entries/s for ${seconds} s with gle frozen`).toBeGreaterThan(heldEntriesAllowance(lines, at, LOG_BOUND, COMMIT_INTERVAL_MS).allowedEntries);
    }
  });

  it('needs the line before the one judged', () => {
    expect(() => heldEntriesAllowance(recorded, 0, LOG_BOUND, COMMIT_INTERVAL_MS)).toThrow(/line 0 and the one before it/);
  });
});
