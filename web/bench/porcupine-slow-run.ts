// How long the wasm Porcupine (the build the Cluster view's check worker runs) takes on the
// client history of e2e/slow-run.ts, by the number of overlapping puts. Each size runs in a child
// process of its own, ended after --cap-s seconds: the search cannot be interrupted from inside
// (js/wasm has no preemption).
//   npx tsx bench/porcupine-slow-run.ts [--cap-s 120] [WRITERSxREADERS ...]     (in web/)
// Prints one line per size: the seconds to the verdict, or that it did not decide within the cap.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadChecker } from '@replicant/checker/node';
import { historyFromTrace } from '../src/cluster/history.ts';
import { slowRun } from '../e2e/slow-run.ts';

function parseSize(arg: string): [number, number] {
  const m = /^([0-9]+)x([0-9]+)$/.exec(arg);
  if (!m) throw new Error(`a size is WRITERSxREADERS, like 12x4; got ${JSON.stringify(arg)}`);
  return [Number(m[1]), Number(m[2])];
}

async function one(writers: number, readers: number): Promise<void> {
  const t_load = performance.now();
  const checker = await loadChecker();
  const load_s = (performance.now() - t_load) / 1000;
  const { ops } = historyFromTrace((await slowRun(writers, readers)).session.trace());
  const t0 = performance.now();
  const { verdict } = checker.check(ops);
  const s = (performance.now() - t0) / 1000;
  console.log(`${s.toFixed(2)} s, verdict ${verdict.verdict}, ${verdict.checked} of ${ops.length} operations checked (the checker loaded in ${load_s.toFixed(2)} s before)`);
}

function main(argv: string[]): void {
  let cap_s = 120;
  const sizes: [number, number][] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cap-s') {
      cap_s = Number(argv[++i]);
      if (!(cap_s > 0)) throw new Error('--cap-s needs a positive number of seconds');
    } else sizes.push(parseSize(argv[i]!));
  }
  if (sizes.length === 0) sizes.push([8, 4], [10, 4], [12, 4], [14, 4], [16, 4]);
  const self = fileURLToPath(import.meta.url);
  for (const [w, r] of sizes) {
    const t0 = performance.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--one', String(w), String(r)], { encoding: 'utf8', timeout: cap_s * 1000 });
    const wall_s = ((performance.now() - t0) / 1000).toFixed(1);
    const label = `${w} puts and ${r} gets overlapping on one key:`;
    if ((child.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') console.log(`${label} not decided within ${cap_s} s (ended)`);
    else if (child.status !== 0) console.log(`${label} ended after ${wall_s} s with status ${child.status ?? child.signal}: ${child.stderr.split('\n').filter((l) => /Error/.test(l)).pop() ?? child.stderr.trim().slice(-200)}`);
    else console.log(`${label} ${child.stdout.trim()}`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--one') await one(Number(args[1]), Number(args[2]));
else main(args);
