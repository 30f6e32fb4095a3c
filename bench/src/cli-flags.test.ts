// Every option resolveOptions reads must be a flag the CLI accepts (a missing one made the
// CLI refuse --quiet-wait-s while the plan supported it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('CLI flags', () => {
  it('declares every flag the options resolver reads', () => {
    const plan = readFileSync(join(import.meta.dirname, 'plan.ts'), 'utf8');
    const cli = readFileSync(join(import.meta.dirname, 'cli.ts'), 'utf8');
    const read = new Set([...plan.matchAll(/s\('([a-z-]+)'\)/g)].map((m) => m[1]!));
    read.add('dry-run');
    for (const flag of read) expect(cli, `--${flag}`).toMatch(new RegExp(`'?${flag}'?: \\{ type:`));
  });
});
