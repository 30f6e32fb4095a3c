import { describe, expect, it } from 'vitest';
import { FIDELITY_USAGE, checkFidelityArgs } from './fidelity-args.ts';

describe('npm run fidelity options', () => {
  // `npm run fidelity -- --help` ran the whole table (7 minutes) and rewrote data/fidelity.csv.
  it('--help asks for the usage, which names every option', () => {
    expect(checkFidelityArgs(['--help'])).toBe('help');
    expect(checkFidelityArgs(['--cache', 'd', '-h'])).toBe('help');
    for (const o of ['--card', '--cache', '--shard', '--cached-only', '--render-only', '--native']) expect(FIDELITY_USAGE).toContain(o);
  });
  it('an unknown option or stray argument stops the run, naming it', () => {
    expect(() => checkFidelityArgs(['--cahce', 'd'])).toThrow(/unknown option "--cahce"/);
    expect(() => checkFidelityArgs(['sweep:0'])).toThrow(/unknown argument "sweep:0"/);
    expect(() => checkFidelityArgs(['--shard'])).toThrow(/--shard needs a value/);
  });
  it('the known options pass; --native takes its own arguments', () => {
    expect(checkFidelityArgs([])).toBe('run');
    expect(checkFidelityArgs(['--card', 'data/models/1.6.0.json', '--cache', '/tmp/x', '--shard', 'sweep:0:java'])).toBe('run');
    expect(checkFidelityArgs(['--cache', '/tmp/x', '--cached-only'])).toBe('run');
    expect(checkFidelityArgs(['--render-only'])).toBe('run');
    expect(checkFidelityArgs(['--native', 'a/results.json', '--out-csv', 'x.csv'])).toBe('native');
  });
});
