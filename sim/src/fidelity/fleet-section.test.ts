import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLEET_SECTION } from './fleet-section.ts';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

describe('the FLEET section of docs/fidelity.md', () => {
  it('is the text the fidelity generator appends, so a regenerated file keeps it', () => {
    expect(readFileSync(root('docs/fidelity.md'), 'utf8').endsWith(`only work.\n\n${FLEET_SECTION}`)).toBe(true);
  });
  it('cites only rows that exist in data/fleet/fleet-values.csv', () => {
    const csv = readFileSync(root('data/fleet/fleet-values.csv'), 'utf8');
    const ids = new Set(csv.split('\n').slice(1).map((l) => l.split(',')[0]));
    const cited = [...FLEET_SECTION.matchAll(/`((?:fig|sec|abstract)[a-z0-9-]+)`/g)].map((m) => m[1]!);
    expect(cited.length).toBeGreaterThan(1);
    for (const id of cited) expect(ids.has(id), id).toBe(true);
  });
});
