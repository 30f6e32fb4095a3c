import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RETIRED_AT_COMMIT, TRIED, triedSection } from './tried-section.ts';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

// The parameters of the retired mechanisms: the simulator no longer reads them, so a card that
// carried one would be silently run without it.
const RETIRED_PARAMETER = /^(commit\.waits_for_all_peers|commit\.election_wait_(min|max)_intervals|go\.pacer_trigger|go\.pacer_cons_mark_mean_of_two|cpu\.[a-z]+\.(leader|follower)_(read|update)_factor)$/;

describe("the 'Tried and not taken' section of docs/fidelity.md", () => {
  it('is in docs/fidelity.md as the generator writes it', () => {
    expect(readFileSync(root('docs/fidelity.md'), 'utf8')).toContain(triedSection());
  });

  it('gives each retired card its mechanism, what it fixed and what it broke, and the commit that still holds its code', () => {
    const s = triedSection();
    for (const r of TRIED) {
      expect(r.mechanism.length && r.fixed.length && r.broke.length, r.card).toBeTruthy();
      expect(s).toContain(`| ${r.card} |`);
    }
    expect(s).toContain(`at commit ${RETIRED_AT_COMMIT}`);
  });

  it('escapes a pipe inside a cell, so the table keeps its columns', () => {
    const s = triedSection([{ card: 'x', mechanism: 'a | b', fixed: 'f', broke: 'b' }], 'abc1234');
    expect(s).toContain('| x | a \\| b | f | b |');
  });

  it('no card left in data/models carries a retired parameter', () => {
    // The named cards the Lab and the tables use, not a glob: a later card must be added here.
    for (const v of ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '1.5.0', '1.6.0', '1.7.0', '1.7.1', '1.8.0', '1.8.1']) {
      const card = JSON.parse(readFileSync(root(`data/models/${v}.json`), 'utf8')) as { parameters: Record<string, unknown> };
      expect(Object.keys(card.parameters).filter((k) => RETIRED_PARAMETER.test(k)), v).toEqual([]);
    }
    for (const v of ['1.8.2', '1.9.0', '1.10.0', '1.10.1', '1.11.0']) expect(existsSync(root(`data/models/${v}.json`)), v).toBe(false);
  });
});
