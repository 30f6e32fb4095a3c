import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { cardWithSettings, parseOneSearchArgs } from './one-search-args.ts';

describe('one-search options', () => {
  it('reads a search and its card changes', () => {
    expect(parseOneSearchArgs(['--engine', 'java', '--gib', '32', '--vcpus', '4', '--set', 'g1.pause_goal_ms=100', '--set', 'cpu.java.step_us=5'])).toEqual({
      engine: 'java',
      gib: 32,
      vcpus: 4,
      workload: 'A',
      card_file: null,
      set: [
        ['g1.pause_goal_ms', 100],
        ['cpu.java.step_us', 5],
      ],
      client_threads: null,
    });
    expect(parseOneSearchArgs(['--help'])).toBe('help');
  });

  it('stops on bad input with a message naming it', () => {
    expect(() => parseOneSearchArgs(['--gib', '32'])).toThrow('--engine is needed');
    expect(() => parseOneSearchArgs(['--engine', 'java'])).toThrow('--gib is needed');
    expect(() => parseOneSearchArgs(['--engine', 'jav', '--gib', '32'])).toThrow('--engine must be one of');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib', '-1'])).toThrow('--gib must be a positive number');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib', '32', '--vcpus', '2.5'])).toThrow('--vcpus must be a positive integer');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib', '32', '--workload', 'C'])).toThrow('--workload must be A or B');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib', '32', '--set', 'g1.pause_goal_ms'])).toThrow('--set takes KEY=NUMBER');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib', '32', '--set', 'g1.pause_goal_ms=fast'])).toThrow('--set takes KEY=NUMBER');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib', '32', '--vcpu', '4'])).toThrow('unknown option --vcpu');
    expect(() => parseOneSearchArgs(['--engine', 'java', '--gib'])).toThrow('--gib needs a value');
    expect(() => parseOneSearchArgs(['java'])).toThrow('unexpected argument "java"');
  });

  it('changes only the named parameters, tags the version, and refuses a key the card lacks', () => {
    const changed = cardWithSettings(DEFAULT_CARD, [['g1.pause_goal_ms', 100]]);
    expect(changed.parameters['g1.pause_goal_ms']!.value).toBe(100);
    expect(DEFAULT_CARD.parameters['g1.pause_goal_ms']!.value).toBe(200);
    expect(changed.version).toBe(`${DEFAULT_CARD.version}-set`);
    const others = Object.keys(DEFAULT_CARD.parameters).filter((k) => k !== 'g1.pause_goal_ms');
    expect(others.every((k) => changed.parameters[k] === DEFAULT_CARD.parameters[k])).toBe(true);
    expect(cardWithSettings(DEFAULT_CARD, [])).toBe(DEFAULT_CARD);
    expect(() => cardWithSettings(DEFAULT_CARD, [['g1.pause_goal', 100]])).toThrow('has no parameter "g1.pause_goal"');
  });
});
