import { describe, expect, it } from 'vitest';
import { simulate } from '@replicant/sim/run/simulate';
import { defaultState } from '../state/app-state.ts';
import { decodeState, encodeState } from '../state/url-state.ts';
import { labKnobHidden } from './lab-fields.ts';
import { runSpec } from './lab-spec.ts';
import { FLEET_VALUES, fleetValue, recoverySentence, storageRow, storageSentence, volatileSpec } from './storage-results.ts';

const lab = () => defaultState().lab;
const lang = (e: string) => e.toUpperCase();

describe('the durability knob', () => {
  it('is off by default (the paper’s design) and then adds nothing to the run', () => {
    expect(lab().dur).toBe('none');
    expect(runSpec(lab(), 1, 'rust').storage).toBeUndefined();
    expect(labKnobHidden(lab(), 'disk')).toBe(true);
  });
  it('asks the simulator for the placement and the device, and the comparison run drops only the storage', () => {
    const s = lab();
    s.dur = 'scattered';
    s.disk = 'local_nvme';
    expect(labKnobHidden(s, 'disk')).toBe(false);
    const spec = runSpec(s, 1, 'rust');
    expect(spec.storage).toEqual({ durability: 'scattered', device: 'local_nvme' });
    const v = volatileSpec(spec)!;
    expect(v.storage).toBeUndefined();
    expect({ ...v, storage: spec.storage }).toEqual(spec);
    expect(volatileSpec(runSpec(lab(), 1, 'rust'))).toBeNull();
  });
  it('round-trips through the address; a bad value is named, and the default is used, never an earlier value', () => {
    const s = defaultState();
    s.lab.dur = 'ordered';
    s.lab.disk = 'local_nvme';
    const back = decodeState(encodeState(s));
    expect(back.problems).toEqual([]);
    expect(back.state.lab.dur).toBe('ordered');
    expect(back.state.lab.disk).toBe('local_nvme');
    const bad = decodeState('?lab.dur=fsync&lab.disk=floppy');
    expect(bad.state.lab.dur).toBe('none');
    expect(bad.state.lab.disk).toBe('cloud_block');
    expect(bad.problems.join(' ')).toMatch(/lab\.dur=fsync.*Durability must be one of none, ordered, scattered/);
    expect(bad.problems.join(' ')).toMatch(/lab\.disk=floppy.*fsync device must be one of cloud_block, local_nvme/);
  });
});

describe('the durability results', () => {
  it('reads FLEET’s stated numbers from data/fleet, and a missing row is an error', () => {
    expect(FLEET_VALUES.length).toBeGreaterThan(40);
    expect(fleetValue('fig6b-memkv-fleet-leader-recovery-time').value).toBe(1175);
    expect(() => fleetValue('no-such-row')).toThrow(/no row "no-such-row"/);
  });
  it('compares a durable run with the same run without durability, in words that say simulated and cite FLEET', () => {
    const s = lab();
    s.records = 100_000;
    s.rate = 2000;
    s.duration = 1;
    s.dur = 'ordered';
    const spec = { ...runSpec(s, 1, 'rust'), load: { ...runSpec(s, 1, 'rust').load, duration_s: 1, warmup_s: 0.3 } };
    const durable = simulate(spec, null);
    const volatile = simulate(volatileSpec(spec)!, null);
    const row = storageRow('rust', durable, volatile);
    expect(row.p50_ms).toBeGreaterThan(row.volatile_p50_ms + row.flush_mean_ms);
    expect(row.flushes_in_a_row).toBeGreaterThan(2);
    expect(row.replay_s).toBeGreaterThan(0);
    const words = storageSentence([row], durable.storage!, lang);
    expect(words).toMatch(/^Simulated with an ordered log on a cloud block volume/);
    expect(words).toContain('800 Kops/s');
    expect(recoverySentence([row], durable.storage!, lang)).toContain('1175 ms');
    expect(() => storageRow('rust', volatile, volatile)).toThrow(/reports its storage/);
  });
});
