// `npm --workspace @replicant/bench run probe-cpu -- <details dir or .jsonl …>`: what each setting's
// own probes say about CPU, the figures the simulator-vs-native report explains its misses with
// (docs/benchmarks.md, "The simulator against native runs"). Per setting: the last clean probe
// that met the SLO, the first clean one that missed above it, and the closed-loop saturation probe,
// each with its rate, intended p99, the nodes' core busy (leader + followers), the leader's CPU µs
// per operation and YCSB's cores. Reads committed details/*.jsonl only; measures nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { probeCpu, type DetailsProbe } from './probe-cpu-figures.ts';

const args = process.argv.slice(2);
if (!args.length) {
  process.stderr.write('usage: probe-cpu <details dir or setting .jsonl> …\n');
  process.exit(2);
}
const cwd = process.env.INIT_CWD ?? process.cwd();
const files = args.flatMap((a) => {
  const p = resolve(cwd, a);
  return statSync(p).isDirectory() ? readdirSync(p).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(p, f)) : [p];
});

const n0 = (x: number) => Math.round(x).toLocaleString('en');
const cells = (p: ReturnType<typeof probeCpu>['met']) =>
  p ? [`${n0(p.rate)} (${p.p99_ms.toFixed(0)} ms)`, p.nodes_cores.toFixed(2), p.leader_us_per_op.toFixed(0), p.ycsb_cores.toFixed(2)] : ['–', '–', '–', '–'];
console.log('| setting | last met, ops/s (p99) | nodes\' core busy | leader µs/op | YCSB cores | first missed above, ops/s (p99) | nodes\' core busy | leader µs/op | YCSB cores | saturation, ops/s | nodes\' core busy | leader µs/op | YCSB cores | search probes |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const f of files) {
  const lines = readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string } & DetailsProbe);
  const figures = probeCpu(lines.filter((l) => l.type === 'probe'));
  console.log(`| ${basename(f, '.jsonl')} | ${[...cells(figures.met), ...cells(figures.missed), ...cells(figures.saturation)].join(' | ')} | ${figures.search_probes} |`);
}
