// npm run --workspace @replicant/engines cluster:sigterm-probe -- ENGINE SIGNALS MAX_S
// SIGTERM at a uniform random moment in the first MAX_S seconds after spawning a server (node 0 of
// a 3-node configuration, an empty data dir), SIGNALS times, one after another; prints how each
// ended, in which phase (the server's own line: "during start-up" or serving) and how long the
// exit took, then the tally. What it measures: the window before a server's main installs its
// handler, where no server can answer the signal (docs/reliability.md, "Every node exits 0 on
// SIGTERM"). The draw is seeded (1), the timing is the machine's.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { serverCommand } from '../loader/node-loaders.ts';
import { freePorts } from './ports.ts';

const GRACE_MS = 3000;
const [engine, signalsText, maxText] = process.argv.slice(2);
const signals = Number(signalsText);
const maxS = Number(maxText);
if (!(ENGINE_NAMES as readonly string[]).includes(engine ?? '') || !Number.isInteger(signals) || signals < 1 || !(maxS > 0)) {
  process.stderr.write(`usage: sigterm-probe ENGINE(${ENGINE_NAMES.join('|')}) SIGNALS(≥ 1) MAX_S(> 0)\n`);
  process.exit(2);
}

let seed = 1;
const uniform = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'replicant-sigterm-probe-'));
const ports = await freePorts(6);
const config = join(dir, 'cluster.json');
writeFileSync(config, JSON.stringify({ peers: ports.slice(0, 3).map((p) => `127.0.0.1:${p}`), clients: ports.slice(3).map((p) => `127.0.0.1:${p}`) }));
const tally = new Map<string, number>();
for (let i = 0; i < signals; i++) {
  const atS = uniform() * maxS;
  const dataDir = join(dir, `data-${i}`);
  mkdirSync(dataDir);
  const [cmd, ...pre] = serverCommand(engine as EngineName);
  const child = spawn(cmd!, [...pre, '--config', config, '--id', '0', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ended = new Promise<string>((r) => child.once('exit', (code, sig) => r(sig ? `ended by ${sig}` : `status ${code}`)));
  const closed = new Promise((r) => child.once('close', r));
  await sleep(atS * 1000);
  const t0 = performance.now();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
  const how = await ended;
  clearTimeout(timer);
  const exitMs = Math.round(performance.now() - t0);
  await closed;
  const phase = stderr.includes('during start-up') ? 'in start-up' : stderr.includes('stopping on SIGTERM') ? 'serving' : 'no stop line';
  const key = `${how}, ${phase}`;
  tally.set(key, (tally.get(key) ?? 0) + 1);
  process.stdout.write(`${atS.toFixed(2)} s after spawn: ${key}, ${exitMs} ms after SIGTERM\n`);
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${engine}: ${[...tally].map(([k, n]) => `${n} × ${k}`).join('; ')}\n`);
