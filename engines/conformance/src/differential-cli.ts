// npm run differential -- --engines go,cpp,rust,java --target wasm-node --sequences 1000 --steps 200 [--seed N]
// Runs random sequences on every listed engine and compares each with the first. Prints the
// seed and first differing step of any divergence; ends with `N sequences, M divergent`.
import { parseArgs } from 'node:util';
import { EngineName, Target } from '../../loader/engine.ts';
import { openEngine } from './targets.ts';
import { firstDivergence, runSequence, safetyProblems } from './differential.ts';

const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'go' },
    target: { type: 'string', default: 'wasm-node' },
    'reference-target': { type: 'string' },
    sequences: { type: 'string', default: '100' },
    steps: { type: 'string', default: '200' },
    seed: { type: 'string' },
  },
});
const names = values.engines!.split(',') as EngineName[];
const target = values.target as Target;
const refTarget = (values['reference-target'] ?? target) as Target;
const engines = [await openEngine(names[0]!, refTarget), ...(await Promise.all(names.slice(1).map((n) => openEngine(n, target))))];
const labels = engines.map((e) => `${e.name}/${e.target}`);
const seeds = values.seed ? [Number(values.seed)] : Array.from({ length: Number(values.sequences) }, (_, i) => i + 1);
let divergent = 0;
let unsafe = 0;
const started = Date.now();
for (const seed of seeds) {
  const reference = await runSequence(engines[0]!, { seed, steps: Number(values.steps) });
  for (const p of safetyProblems(reference)) (unsafe++, console.log(`UNSAFE seed=${seed}: ${p}`));
  for (let i = 1; i < engines.length; i++) {
    const other = await runSequence(engines[i]!, { seed, steps: Number(values.steps) });
    const d = firstDivergence(seed, [labels[0]!, labels[i]!], reference, other);
    if (d) {
      divergent++;
      console.log(`DIVERGENCE seed=${d.seed} step=${d.step} between ${d.engines.join(' and ')}`);
      console.log(`  ${d.engines[0]}:\n    ${d.expected.split('\n').join('\n    ')}`);
      console.log(`  ${d.engines[1]}:\n    ${d.actual.split('\n').join('\n    ')}`);
      console.log(`  replay: npm run differential -- --engines ${names[0]},${names[i]} --target ${target} --seed ${seed} --steps ${values.steps}`);
    }
  }
}
for (const e of engines) await e.close();
console.log(`${seeds.length} sequences of ${values.steps} steps on ${labels.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${divergent} divergent, ${unsafe} safety problems`);
process.exitCode = divergent || unsafe ? 1 : 0;
