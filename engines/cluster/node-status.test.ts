import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StatusReader, lineStampMs, parseStampedStatusLines } from './node-status.ts';

const line = (stamp: string, lastExecuted: number) =>
  `[rust n0] ${stamp} status {"role":"leader","leader":0,"ballot":1,"elections":1,"last_index":${lastExecuted},"last_executed":${lastExecuted},"global_last_executed":0}`;

describe('StatusReader', () => {
  it('lets the event loop run while a caller polls it (a loop that never marked again starved the test process)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'status-')), 'node.log');
    writeFileSync(path, line('2026/11/27 06:50:25.185703', 163) + '\n');
    const r = new StatusReader(path);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    // the stall test's wait, with a status line already there: before the fix every call came
    // back from microtasks alone and the timer (a client's reply, the log relay) never ran
    for (let i = 0; i < 50 && !timerRan; i++) await r.nextStatus();
    expect(timerRan).toBe(true);
  });

  it('finds the first line stamped at or after a time, whenever it reached the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'status-')), 'node.log');
    writeFileSync(path, [line('2026/11/27 06:50:25.185703', 163), line('2026/11/27 06:50:26.187912', 202)].join('\n') + '\n');
    const at = new Date(2026, 10, 27, 6, 50, 26, 0).getTime();
    expect(lineStampMs(line('2026/11/27 06:50:26.187912', 1))).toBe(at + 187);
    expect(parseStampedStatusLines(`garbage\n${line('2026/11/27 06:50:25.185703', 163)}\n`).map((x) => x.status.last_executed)).toEqual([163]);
    expect((await new StatusReader(path).nextStatusStampedAfter(at)).last_executed).toBe(202);
  });
});
