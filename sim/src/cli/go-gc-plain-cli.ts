// `npm --workspace @replicant/sim run go-gc-plain -- --out FILE`: the plain 120 s Go runs behind
// Fig 12, their figures written as test data (fidelity/go-gc-plain.ts). ≈ 50 CPU-s.
import { writeFileSync } from 'node:fs';
import { computeGoGcPlain } from '../fidelity/go-gc-plain.ts';

const USAGE = 'usage: npm --workspace @replicant/sim run go-gc-plain -- --out FILE (FILE relative to sim/)';

function main(args: string[]): void {
  if (args.length !== 2 || args[0] !== '--out' || !args[1] || args[1].startsWith('--')) throw new Error(USAGE);
  const record = computeGoGcPlain((gib, cpu_s) => console.log(`Go A ${gib} GiB: plain run, ${cpu_s.toFixed(1)} CPU-s`));
  writeFileSync(args[1], JSON.stringify(record, null, 2) + '\n');
  console.log(`wrote ${args[1]}`);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
