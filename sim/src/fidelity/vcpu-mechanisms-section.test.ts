import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { vcpuG1BudgetSection } from './vcpu-g1-budget-section.ts';
import { vcpuMechanismsSection } from './vcpu-mechanisms-section.ts';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

describe("the 'Java's vCPU points' section of docs/fidelity.md", () => {
  it('is in docs/fidelity.md as the generator writes it', () => {
    expect(readFileSync(root('docs/fidelity.md'), 'utf8')).toContain(vcpuMechanismsSection());
  });

  it('names the command its figures came from and says they are simulated with card 1.7.1', () => {
    const s = vcpuMechanismsSection();
    expect(s).toContain('npm --workspace @replicant/sim run one-search --');
    expect(s).toContain('card 1.7.1');
  });

  it("sets the model's G1 threads beside HotSpot's defaults, computed from the default card", () => {
    const s = vcpuG1BudgetSection(DEFAULT_CARD);
    expect(s).toContain('| 4 (32 GiB) | 4 | 1 | 25 % | 4 | 69 min at 9.447 Kops/s (the table) |');
    expect(s).toContain('| 8 (32 GiB) | 8 | 2 | 25 % | 8 | 40 min at 16.314 Kops/s (the table) |');
    expect(s).toContain('There is no candidate card 1.13.0');
    expect(vcpuMechanismsSection()).toContain(s);
  });

  it('lists candidate card 1.11.0 as tried and not taken, with the commits that hold it, in place of its own section', () => {
    const s = vcpuMechanismsSection();
    expect(s).toContain('### Tried and not taken');
    expect(s).toMatch(/\| 1\.11\.0 \|.*commit bc06001; its whole table and section: 55810a2/);
    expect(readFileSync(root('docs/fidelity.md'), 'utf8')).not.toContain('## Candidate card 1.11.0');
  });
});
