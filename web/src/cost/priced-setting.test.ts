import { describe, expect, it } from 'vitest';
import { defaultState } from '../state/app-state.ts';
import { decodeState, encodeState } from '../state/url-state.ts';
import { toCostInputs, toMemoryInputs } from './cost-inputs.ts';
import { parseSetting, stalePriced, staleSentence, usableCapacity } from './priced-setting.ts';

const priced = () => ({
  ...defaultState().cost,
  capjava: 7_000,
  srcjava: { kind: 'simulated' as const, model: '1.2.3' },
  capcpp: 12_345,
  srccpp: null,
  at: { workload: 'A', ratio: '8', vcpus: '8' },
});

describe('priced capacities belong to the setting they were measured at', () => {
  it('are used while the form is at that setting', () => {
    const c = priced();
    expect(stalePriced(c, 'form')).toBeNull();
    expect(toCostInputs(c).capacity.ops_per_s_per_cluster).toEqual({ Java: 7_000, 'C++': 12_345 });
  });

  for (const [key, value, changed] of [['ratio', '1.25', 'ratio'], ['wl', 'B', 'workload'], ['vcpus', '4', 'vCPUs']] as const) {
    it(`are flagged and left out once the ${changed} changes (a capacity typed by hand stays)`, () => {
      const c = { ...priced(), [key]: value };
      const stale = stalePriced(c, 'form');
      expect(stale).toMatchObject({ side: 'form', engines: ['java'] });
      expect(usableCapacity(c, 'form', 'java')).toBeNull();
      expect(toCostInputs(c).capacity.ops_per_s_per_cluster).toEqual({ 'C++': 12_345 });
      expect(staleSentence(stale!, (e) => (e === 'java' ? 'Java' : e))).toContain(`were measured at workload A, ratio 8, 8 vCPUs; the form now asks for`);
      expect(staleSentence(stale!, String)).toContain(`(${changed} changed)`);
    });
  }

  it('flags the compared ratio’s capacities on their own', () => {
    const c = { ...defaultState().cost, vscapjava: 3_500, vssrcjava: { kind: 'simulated' as const, model: '1.2.3' }, vsat: { workload: 'A', ratio: '1.25', vcpus: '8' } };
    expect(toMemoryInputs(c).other_memory.ops_per_s_per_cluster).toEqual({ Java: 3_500 });
    const moved = { ...c, vs: '2' as const };
    expect(stalePriced(moved, 'vs')).toMatchObject({ side: 'vs', engines: ['java'], now: { ratio: '2' } });
    expect(toMemoryInputs(moved).other_memory.ops_per_s_per_cluster).toEqual({});
    expect(stalePriced(moved, 'form')).toBeNull();
  });

  it('round-trips through the URL and refuses a setting it cannot read', () => {
    const c = priced();
    const back = decodeState(encodeState({ ...defaultState(), cost: c }));
    expect(back.state.cost.at).toEqual(c.at);
    for (const bad of ['A/3/8', 'C/8/8', 'A/8', 'A/8/8/8', 'banana']) expect(() => parseSetting(bad, 'cost.at')).toThrow(/must be empty or/);
  });
});
