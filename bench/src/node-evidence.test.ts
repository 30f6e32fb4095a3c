import { describe, expect, it } from 'vitest';
import { nodeEvidence } from './measure.ts';

describe('nodeEvidence', () => {
  it('keeps the last limit lines, counts the rest, and ends with the last stats line', () => {
    const log = [
      'n0 started',
      'limit: dropped 10 peer messages (link down or over 1 MiB queued)',
      'stats {"executed":1}',
      'limit: dropped 11 peer messages',
      'limit: dropped 12 peer messages',
      'limit: dropped 13 peer messages',
      'stats {"executed":2}',
    ].join('\n');
    expect(nodeEvidence(log)).toBe(
      '(4 limit lines in all) / limit: dropped 11 peer messages / limit: dropped 12 peer messages / limit: dropped 13 peer messages / stats {"executed":2}',
    );
  });
  it('says so when a node logged nothing about limits', () => {
    expect(nodeEvidence('n0 started\n')).toBe('(nothing logged about limits)');
  });
});
