import { describe, expect, it } from 'vitest';
import { decodeState, encodeState, MAX_QUERY_LENGTH } from './url-state.ts';
import { GROUPS, TOP_FIELDS, defaultState, type AppState } from './app-state.ts';
import type { Field } from './fields.ts';
import { mulberry32 } from '@replicant/engines/conformance/differential';

// Seeded, so a failing state replays: the differential test's PRNG.
const rng = mulberry32;

function randomValue(field: Field<unknown>, r: () => number): unknown {
  const c = field.control;
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const num = (min: number, max: number, step: number) => {
    const steps = Math.floor((max - min) / step);
    return Number((min + Math.floor(r() * (steps + 1)) * step).toPrecision(12));
  };
  switch (c.kind) {
    case 'number':
      return num(c.min, c.max, c.step);
    case 'optional-number':
      return r() < 0.3 ? null : num(c.min, c.max, c.step);
    case 'select':
      return pick(c.options).value;
    case 'multi': {
      const chosen = c.options.filter(() => r() < 0.5).map((o) => o.value);
      return chosen.length ? chosen : [c.options[0]!.value];
    }
    case 'number-list': {
      const n = 1 + Math.floor(r() * c.maxItems);
      return [...new Set(Array.from({ length: n }, () => num(c.min, c.max, 0.25)))];
    }
    case 'flag':
      return r() < 0.5;
    case 'hidden':
      // Four hidden kinds: recorded step lists, the Cost view's capacity sources and the
      // settings they were priced at, and the Cluster view's torture run.
      if (field.label === 'Torture run') return pick(['', 'go:12', 'all:7;keep=0,2;ops=4;amnesia;check-quorum;repair=256;election=256', `rust:${Math.floor(r() * 1000)};keep=`]);
      if (field.label.startsWith('Setting')) return pick([null, { workload: 'A', ratio: '8', vcpus: '8' }, { workload: 'B', ratio: '1.25', vcpus: '2' }]);
      if (!Array.isArray(field.default)) return pick([null, { kind: 'simulated', model: '0.9.1' }, { kind: 'native', date: '2026-11-22', machine: `box ${Math.floor(r() * 1000)}: é,&=` }]);
      return Array.from({ length: Math.floor(r() * 5) }, (_, i) => `d${i}:${Math.floor(r() * 1000)} é,&=`);
  }
}

function randomState(seed: number): AppState {
  const r = rng(seed);
  const s = defaultState() as unknown as Record<string, Record<string, unknown> | unknown>;
  for (const [k, f] of Object.entries(TOP_FIELDS)) if (r() < 0.7) s[k] = randomValue(f as Field<unknown>, r);
  for (const [name, g] of Object.entries(GROUPS)) {
    const values = s[name] as Record<string, unknown>;
    for (const [k, f] of Object.entries(g.fields)) if (r() < 0.5) values[k] = randomValue(f as Field<unknown>, r);
  }
  return s as unknown as AppState;
}

describe('encodeState / decodeState', () => {
  it('writes nothing for the defaults', () => {
    expect(encodeState(defaultState())).toBe('');
    expect(decodeState('')).toEqual({ state: defaultState(), problems: [] });
  });

  it('round-trips 500 random states exactly, with no problems', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const s = randomState(seed);
      const url = encodeState(s);
      const back = decodeState(`?${url}`);
      expect(back.problems, `seed ${seed}: ${url}`).toEqual([]);
      expect(back.state, `seed ${seed}: ${url}`).toEqual(s);
      expect(encodeState(back.state)).toBe(url);
    }
  });

  it('keeps lists readable and orders keys the same way every time', () => {
    const s = defaultState();
    s.view = 'lab';
    s.lab.engines = ['go', 'java'];
    s.lab.gibs = [16, 4];
    s.seed = 42;
    expect(encodeState(s)).toBe('view=lab&seed=42&lab.engines=go,java&lab.gibs=16,4');
  });

  it('reads a value with a literal plus sign as written (no form decoding)', () => {
    const { problems } = decodeState('?view=lab&lab.ratio=1e+0');
    expect(problems).toEqual([]);
  });

  it('explains each bad setting and keeps the good ones', () => {
    const { state, problems } = decodeState('?view=cost&cost.ops=lots&cost.horizon=9999&nonsense=1&cost.gc=cobol&cost.team=3');
    expect(state.view).toBe('cost');
    expect(state.cost.team).toBe(3);
    expect(state.cost.ops).toBe(200_000);
    expect(state.cost.horizon).toBe(60);
    expect(state.cost.gc).toBe('java');
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('Demand now must be a number from 1 to 1000000000');
    expect(problems[1]).toContain('Horizon must be a whole number from 1 to 600');
    expect(problems[2]).toContain('“nonsense” is unknown');
    expect(problems[3]).toContain('GC language must be one of java, go');
  });

  it('refuses broken percent-encoding, repeats, empty lists and foreign step lists', () => {
    const { state, problems } = decodeState('?view=%E0%A4%A&view=lab&view=race&lab.engines=&lab.gibs=4,4&c.choices=not*base64&c.step=-1');
    expect(state.view).toBe('lab');
    expect(problems.map((p) => p.slice(0, 12))).toEqual([
      '“view=%E0%A4',
      '“view” is gi',
      '“lab.engines',
      '“lab.gibs=4,',
      '“c.choices=n',
      '“c.step=-1” ',
    ]);
  });

  it('refuses a step list that decodes to something other than a list of strings', () => {
    const encoded = btoa(JSON.stringify({ a: 1 })).replace(/=+$/, '');
    const { state, problems } = decodeState(`?c.choices=${encoded}`);
    expect(state.cluster.choices).toEqual([]);
    expect(problems[0]).toContain('Recorded steps is not a list this lab wrote');
  });

  it('shows the defaults for an address that is far too long', () => {
    const { state, problems } = decodeState(`?seed=${'9'.repeat(MAX_QUERY_LENGTH)}`);
    expect(state).toEqual(defaultState());
    expect(problems[0]).toContain('too long');
  });

  it('rejects numbers written in ways a person would not mean', () => {
    for (const bad of ['1,5', '0x10', ' ', 'Infinity', 'NaN', '1.5.2', '']) {
      const { problems } = decodeState(`?cost.team=${encodeURIComponent(bad)}`);
      expect(problems, bad).toHaveLength(1);
    }
  });
});
