import { describe, expect, it } from 'vitest';
import { parseNativeRowArgs } from './fidelity-native-row-args.ts';

describe('npm run native-row: its options', () => {
  it('takes a results file, a setting, a card, settings of the card and probe rates', () => {
    expect(parseNativeRowArgs(['--native', 'r.json', '--setting', 'java-a-100000rec-r8', '--card', 'c.json', '--set', 'g1.independent_phases=1', '--probe', '1500,2500'])).toEqual({
      native: 'r.json', setting: 'java-a-100000rec-r8', card: 'c.json', set: [['g1.independent_phases', 1]], probes: [1500, 2500],
    });
    expect(parseNativeRowArgs(['--help'])).toBe('help');
  });

  it('stops on what it cannot take, before anything runs', () => {
    expect(() => parseNativeRowArgs(['--native', 'r.json', '--card', 'c.json'])).toThrow(/--setting is needed/);
    expect(() => parseNativeRowArgs(['--native', 'r.json', '--setting', 'x', '--card'])).toThrow(/--card needs a value/);
    expect(() => parseNativeRowArgs(['--native', 'r.json', '--setting', 'x', '--card', 'c', '--set', 'g1.x=fast'])).toThrow(/KEY=NUMBER/);
    expect(() => parseNativeRowArgs(['--native', 'r.json', '--setting', 'x', '--card', 'c', '--probe', '100,-5'])).toThrow(/positive rates/);
    expect(() => parseNativeRowArgs(['--native', 'r.json', '--setting', 'x', '--card', 'c', '--seed', '2'])).toThrow(/unknown option --seed/);
  });
});
