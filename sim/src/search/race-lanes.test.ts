import { describe, expect, it } from 'vitest';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import { RACE_LANE_GROUPS, raceWorkerOf } from './race-lanes.ts';

describe("the Race's lane groups", () => {
  it('every engine runs in exactly one of two workers, a costly lane (Go, Java) beside a cheap one', () => {
    expect(RACE_LANE_GROUPS).toHaveLength(2);
    for (const e of ENGINE_NAMES) expect(RACE_LANE_GROUPS.filter((g) => g.includes(e))).toHaveLength(1);
    expect(raceWorkerOf('go')).not.toBe(raceWorkerOf('java'));
    expect(() => raceWorkerOf('cobol' as never)).toThrow(/no Race worker/);
  });
});
