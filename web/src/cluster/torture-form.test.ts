import { describe, expect, it } from 'vitest';
import { MAX_SEED, parseReplaySpec, replayCommand } from '@replicant/sim/torture/replay-spec';
import { choiceOf, KNOWN_VIOLATION, readSeed, specFor } from './torture-form.ts';

describe('the torture control as data', () => {
  it('reads engine, seed and durability into the run line the CLI prints', () => {
    expect(specFor({ engine: 'rust', seed_text: '275', durability: 'none' }, '')).toEqual({ spec: 'rust:275;durability=none' });
    expect(specFor({ engine: 'all', seed_text: ' 12 ', durability: 'log' }, '')).toEqual({ spec: 'all:12;durability=log' });
    expect(specFor({ engine: 'go', seed_text: '0', durability: 'kept' }, '')).toEqual({ spec: 'go:0' });
    // the preset is the seed the command line documents
    const known = specFor(KNOWN_VIOLATION, '');
    expect('spec' in known && replayCommand(parseReplaySpec(known.spec))).toBe('npm run torture -- --engine rust --replay 275 --durability none');
  });

  it('keeps a shrunk run and the cores’ options when only durability changes; a new seed starts the whole seed', () => {
    const shrunk = 'rust:275;keep=1,2;ops=5;amnesia;check-quorum';
    expect(specFor({ engine: 'rust', seed_text: '275', durability: 'log' }, shrunk)).toEqual({ spec: 'rust:275;keep=1,2;ops=5;durability=log;check-quorum' });
    expect(specFor({ engine: 'rust', seed_text: '276', durability: 'log' }, shrunk)).toEqual({ spec: 'rust:276;durability=log' });
    expect(specFor({ engine: 'cpp', seed_text: '275', durability: 'log' }, shrunk)).toEqual({ spec: 'cpp:275;durability=log' });
    // checkpoints need a disk: dropped with durability none
    expect(specFor({ engine: 'cpp', seed_text: '306', durability: 'none' }, 'cpp:306;durability=log;repair=256;election=256;checkpoints')).toEqual({ spec: 'cpp:306;durability=none;repair=256;election=256' });
  });

  it('reads a run line back into the fields', () => {
    expect(choiceOf('rust:275;amnesia')).toEqual({ engine: 'rust', seed_text: '275', durability: 'none' });
    expect(choiceOf('go:3;durability=log')).toEqual({ engine: 'go', seed_text: '3', durability: 'log' });
    expect(choiceOf('java:9')).toEqual({ engine: 'java', seed_text: '9', durability: 'kept' });
  });

  it('a seed that is not one is a sentence, and no line comes out of it', () => {
    for (const bad of ['', 'abc', '-1', '1.5', '1e3', '0x10', String(MAX_SEED + 1), '9'.repeat(16)]) {
      const r = specFor({ engine: 'rust', seed_text: bad, durability: 'none' }, 'rust:275;durability=none');
      expect(r, bad).not.toHaveProperty('spec');
      expect('error' in r && r.error, bad).toMatch(/^The seed must be a whole number from 0 to 1099511627776; .* is not one\. No run was started\.$/);
    }
    expect(readSeed(String(MAX_SEED))).toEqual({ seed: MAX_SEED });
  });
});
