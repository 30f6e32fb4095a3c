import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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
});
