import { describe, expect, it } from 'vitest';
import { ENGINE_NAMES, type EngineName } from '@replicant/engines/loader/catalogue';
import { nextRaceSearch, raceHint, raceLaneGroups, raceWorkerOf, type RaceSearch } from './race-lanes.ts';

describe("the Race's lane groups", () => {
  it('a worker a core up to one a lane; every engine in exactly one worker; Go and Java apart from two workers on', () => {
    for (const cores of [1, 2, 3, 4, 16]) {
      const groups = raceLaneGroups(cores);
      expect(groups).toHaveLength(Math.min(cores, 4));
      for (const e of ENGINE_NAMES) expect(groups.filter((g) => g.includes(e))).toHaveLength(1);
      if (cores >= 2) expect(raceWorkerOf(groups, 'go')).not.toBe(raceWorkerOf(groups, 'java'));
    }
    // two workers: a costly lane beside a cheap one
    expect(raceLaneGroups(2)).toEqual([
      ['cpp', 'go'],
      ['rust', 'java'],
    ]);
  });

  it('a missing or nonsensical core count gives two workers; an unknown engine is named', () => {
    for (const cores of [undefined, 0, -3, Number.NaN, Infinity]) expect(raceLaneGroups(cores)).toHaveLength(2);
    expect(raceLaneGroups(2.9)).toHaveLength(2);
    expect(() => raceWorkerOf(raceLaneGroups(2), 'cobol' as never)).toThrow(/no Race worker/);
  });
});

describe("a Race worker's next search", () => {
  const LEVELS = 4;
  // Plays one worker's searches to the end: `shownAt(i)` is the level shown before its i-th search.
  const play = (lanes: EngineName[], shownAt: (i: number) => number, done = new Set<string>()): RaceSearch[] => {
    const order: RaceSearch[] = [];
    for (;;) {
      const next = nextRaceSearch(() => lanes, shownAt(order.length), LEVELS, (e, l) => done.has(`${e}@${l}`), lanes);
      if (!next) return order;
      done.add(`${next.engine}@${next.level}`);
      order.push(next);
    }
  };

  it('searches the level shown first, then goes on down the squeeze level by level while the user looks at it (one worker)', () => {
    expect(play(['cpp', 'go'], () => 0)).toEqual([
      { engine: 'cpp', level: 0 },
      { engine: 'go', level: 0 },
      { engine: 'cpp', level: 1 },
      { engine: 'go', level: 1 },
      { engine: 'cpp', level: 2 },
      { engine: 'go', level: 2 },
      { engine: 'cpp', level: 3 },
      { engine: 'go', level: 3 },
    ]);
  });

  it('a user who steps on keeps the order the same (the searches ahead are the ones → would start)', () => {
    // one level a search: the user is always at or above the level searched
    const stepping = play(['rust', 'java'], (i) => Math.min(3, Math.floor(i / 2)));
    expect(stepping).toEqual(play(['rust', 'java'], () => 0));
  });

  it('a level opened first (the address) is searched before anything; levels above it only when shown', () => {
    expect(play(['java'], () => 2)).toEqual([
      { engine: 'java', level: 2 },
      { engine: 'java', level: 3 },
    ]);
    // then the user steps back to 32 GiB: the levels not searched yet, from there down
    const done = new Set(['java@2', 'java@3']);
    expect(play(['java'], () => 0, done)).toEqual([
      { engine: 'java', level: 0 },
      { engine: 'java', level: 1 },
    ]);
  });

  it('a worker whose lanes are found goes ahead only once every worker\'s lanes are found at the levels above', () => {
    const all: EngineName[] = ['cpp', 'go', 'rust', 'java'];
    const done = new Set(['cpp@0', 'go@0', 'rust@0']);
    const searched = (e: EngineName, l: number) => done.has(`${e}@${l}`);
    // Java's lane (the other worker) is still searching 32 GiB: the C++/Go worker waits
    expect(nextRaceSearch(() => ['cpp', 'go'], 0, LEVELS, searched, all)).toBeNull();
    expect(nextRaceSearch(() => ['rust', 'java'], 0, LEVELS, searched, all)).toEqual({ engine: 'java', level: 0 });
    done.add('java@0');
    expect(nextRaceSearch(() => ['cpp', 'go'], 0, LEVELS, searched, all)).toEqual({ engine: 'cpp', level: 1 });
    // the same one level further down: 8 GiB found but for Java's lane
    for (const e of ['cpp', 'go', 'rust']) done.add(`${e}@1`);
    expect(nextRaceSearch(() => ['cpp', 'go'], 0, LEVELS, searched, all)).toBeNull();
    // without the wait (the lanes of this worker alone), it would have gone on to 6 GiB
    expect(nextRaceSearch(() => ['cpp', 'go'], 0, LEVELS, searched, ['cpp', 'go'])).toEqual({ engine: 'cpp', level: 2 });
  });

  it('nothing left: null; the lanes may be ordered per level', () => {
    expect(nextRaceSearch(() => ['go'], 0, LEVELS, () => true, ['go'])).toBeNull();
    expect(nextRaceSearch((l) => (l === 0 ? ['go', 'cpp'] : ['cpp', 'go']), 0, LEVELS, (e, l) => l === 0, ['go', 'cpp'])).toEqual({ engine: 'cpp', level: 1 });
  });
});

describe("a Race lane's warm start", () => {
  it('the lowest rate the lane met at the larger memory sizes searched; cold when it met none there', () => {
    expect(raceHint([49_599, null, 41_080])).toEqual({ met_ops_per_s: 41_080 });
    expect(raceHint([16_314.25])).toEqual({ met_ops_per_s: 16_314.25 });
    expect(raceHint([null, undefined])).toBeUndefined();
    expect(raceHint([])).toBeUndefined();
  });
});
