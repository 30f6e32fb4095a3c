// npm run election-probe -- [--engine E] [--commit-interval-us N] [--delays-us A,B,…]
// Prints, per one-way message delay, the elections started and won and the operations answered
// in a 3-node cluster whose every message takes that much longer (src/torture/election-probe.ts).
import { ENGINE_NAMES, type EngineName } from '@replicant/engines/loader/engine';
import { provider } from './engines.ts';
import { probeElections } from '../torture/election-probe.ts';

const USAGE = `usage: npm run election-probe -- [--engine go|cpp|rust|java] [--commit-interval-us N] [--delays-us A,B,...]
  defaults: rust, 10000 (the torture's commit interval), delays 0,0.4,0.8,0.9,1,1.5,2 commit intervals`;
function fail(msg: string): never {
  process.stderr.write(msg + '\n' + USAGE + '\n');
  process.exit(2);
}
const opt = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  if (a === '--help' || a === '-h') fail('');
  if (!['--engine', '--commit-interval-us', '--delays-us'].includes(a) || argv[i + 1] === undefined) fail(`bad argument "${a}"`);
  opt.set(a.slice(2), argv[++i]!);
}
const engine = (opt.get('engine') ?? 'rust') as EngineName;
if (!(ENGINE_NAMES as readonly string[]).includes(engine)) fail(`unknown engine "${engine}"`);
const ci = Number(opt.get('commit-interval-us') ?? 10_000);
if (!Number.isInteger(ci) || ci < 1000 || ci > 1_000_000) fail(`--commit-interval-us must be an integer in [1000, 1000000]: ${opt.get('commit-interval-us')}`);
const delays = opt.has('delays-us') ? opt.get('delays-us')!.split(',').map(Number) : [0, 0.4, 0.8, 0.9, 1, 1.5, 2].map((f) => Math.round(f * ci));
for (const d of delays) if (!Number.isInteger(d) || d < 0 || d > 100 * ci) fail(`--delays-us: each an integer in [0, 100 commit intervals]: ${opt.get('delays-us')}`);
const provide = await provider([engine]);
for (const d of delays) console.log(JSON.stringify(probeElections(engine, ci, d, provide)));
