import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { checkNativeArgs, parseNativeInput, REPORT_MACHINE_CARD, resolveCardChoice } from './fidelity-native-cli.ts';

describe('npm run fidelity -- --native: the card and the rows', () => {
  it('takes the Lab card by default name, a card file, and refuses what is not a card', () => {
    expect(resolveCardChoice('lab', '/')).toMatchObject({ card: DEFAULT_CARD });
    expect(resolveCardChoice('data/models/1.6.0.json', process.cwd() + '/..').card.version).toBe('1.6.0');
    expect(() => resolveCardChoice('package.json', process.cwd())).toThrow(/--card package.json: .* is not a readable model card/);
    expect(() => resolveCardChoice('no/such.json', process.cwd())).toThrow(/not a readable model card/);
  });

  it('takes for `machine` the card the report uses, not the newest by name', () => {
    // 0.6.0 and 0.7.0 are newer by name but scored worse on the rows none of them was derived from
    expect(resolveCardChoice('machine', '/').card.version).toBe(REPORT_MACHINE_CARD);
    expect(REPORT_MACHINE_CARD).toBe('0.5.0-machine.20261128');
  });

  it('takes one engine list per results file', () => {
    expect(parseNativeInput('data/native/x/results.json')).toEqual({ path: 'data/native/x/results.json', engines: null });
    expect(parseNativeInput('data/native/x/results.json:cpp,rust')).toEqual({ path: 'data/native/x/results.json', engines: ['cpp', 'rust'] });
    expect(() => parseNativeInput('x/results.json:cpp,etcd')).toThrow(/"etcd" is not an engine/);
  });

  it('takes a group after "@", with or without an engine list, and refuses an odd one', () => {
    expect(parseNativeInput('data/native/x/results.json@quiet')).toEqual({ path: 'data/native/x/results.json', engines: null, group: 'quiet' });
    expect(parseNativeInput('data/native/x/results.json:cpp,rust@load-56')).toEqual({ path: 'data/native/x/results.json', engines: ['cpp', 'rust'], group: 'load-56' });
    expect(() => parseNativeInput('x/results.json@a b')).toThrow(/a group is letters/);
    expect(() => parseNativeInput('x/results.json:cpp,etcd@quiet')).toThrow(/"etcd" is not an engine/);
  });

  it('stops on an unknown option or an empty list before anything runs', () => {
    expect(() => checkNativeArgs(['--native', 'a.json', '--card', 'machine', 'lab', '--out-md', 'x.md'])).not.toThrow();
    expect(() => checkNativeArgs(['--native', 'a.json', '--cards', 'machine'])).toThrow(/unknown option "--cards"/);
    expect(() => checkNativeArgs(['--native', 'a.json', '--card'])).toThrow(/--card needs lab, machine or a card file/);
    expect(() => checkNativeArgs(['--native'])).toThrow(/one or more results.json/);
    expect(() => checkNativeArgs(['--native', 'a.json', '--out-csv'])).toThrow(/--out-csv needs a file/);
  });
});
