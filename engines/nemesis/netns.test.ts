import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { leftovers, NetnsLab, netnsUnavailable, sweepLeftovers } from './netns.ts';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

const PORT = 7400;
// a TCP echo server, and a client that says whether one byte came back within 1 s
const SERVER = `require('net').createServer((s) => s.pipe(s)).listen(${PORT}, process.argv[1], () => console.log('listening'))`;
const CLIENT = `const s = require('net').connect(${PORT}, process.argv[1]); s.on('connect', () => s.write('x')); s.on('data', () => process.exit(0)); s.on('error', () => process.exit(2)); setTimeout(() => process.exit(1), 1000)`;

let lab: NetnsLab | null = null;
let server: ChildProcess | null = null;
let nemesis: ChildProcess | null = null;
afterEach(() => {
  server?.kill('SIGKILL');
  nemesis?.kill('SIGKILL');
  lab?.remove();
  sweepLeftovers();
});

/** Starts a Go nemesis run with network faults (its own process: its pid names its namespaces)
 * and resolves once a partition or cut is in force. */
async function nemesisMidFault(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--engine', 'go', '--runs', '1', '--faults', 'partition,cut', '--duration-s', '60'], { stdio: ['ignore', 'pipe', 'pipe'] });
  nemesis = child;
  let out = '';
  await new Promise<void>((resolve, reject) => {
    // the run's log lines go to stderr
    const read = (d: Buffer) => {
      out += d.toString();
      if (/ms: (cut|partition) n\d/.test(out)) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the nemesis ended (${code}) before its first network fault:\n${out}`)));
  });
  return child;
}

const ended = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

/** Whether node `from` gets an answer from node `to`'s echo server. */
function reaches(l: NetnsLab, from: number, to: number): boolean {
  return spawnSync('ip', ['netns', 'exec', `rn${process.pid}n${from}`, process.execPath, '-e', CLIENT, l.hosts[to]!]).status === 0;
}

describe.skipIf(netnsUnavailable() !== null)('network namespaces for the nemesis', () => {
  it('a cut loses what one node sends another, one way, until healed; nothing is left afterwards', async () => {
    lab = NetnsLab.create(3);
    const l = lab;
    server = spawn('ip', ['netns', 'exec', `rn${process.pid}n1`, process.execPath, '-e', SERVER, l.hosts[1]!], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => server!.stdout!.once('data', () => resolve()));
    expect(reaches(l, 0, 1)).toBe(true);
    expect(reaches(l, 2, 1)).toBe(true);
    l.cut(0, 1);
    expect(l.activeCuts()).toEqual(['0>1']);
    expect(reaches(l, 0, 1)).toBe(false); // its packets to n1 are lost: no answer, no refusal
    expect(reaches(l, 2, 1)).toBe(true);
    l.healAll();
    expect(reaches(l, 0, 1)).toBe(true);
    l.isolate(1);
    expect(reaches(l, 0, 1)).toBe(false);
    expect(reaches(l, 2, 1)).toBe(false);
    l.isolate(1, false);
    expect(reaches(l, 2, 1)).toBe(true);
    server.kill('SIGKILL');
    l.remove();
    expect(leftovers(process.pid)).toEqual({ namespaces: [], links: [] });
  }, 60_000);

  // Before stop 38 a Ctrl-C while the cluster was still starting (before it served) ended the
  // nemesis at once: its servers kept running and its namespaces stayed until the next run
  it('a nemesis stopped by Ctrl-C while its cluster starts stops its servers and removes its namespaces', async () => {
    // Java's servers take seconds to serve: the namespaces and their servers exist well before
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--engine', 'java', '--runs', '1', '--faults', 'partition', '--duration-s', '60'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nemesis = child;
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const inNamespaces = () =>
      [0, 1, 2].map((i) => spawnSync('ip', ['netns', 'pids', `rn${child.pid}n${i}`], { encoding: 'utf8' }).stdout.split('\n').filter((x) => x !== '').map(Number));
    let servers: number[][] = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      servers = inNamespaces();
      if (servers.every((pids) => pids.length > 0)) break;
    }
    expect(servers.every((pids) => pids.length > 0), `a server in each namespace:\n${out}`).toBe(true);
    expect(out, 'the cluster is still starting').not.toContain('cluster serving');
    child.kill('SIGINT');
    expect(await ended(child)).toBe(130);
    expect(out).not.toContain('cluster serving');
    expect(leftovers(child.pid!)).toEqual({ namespaces: [], links: [] });
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return false;
      }
    };
    expect(servers.flat().filter(alive), 'servers left running').toEqual([]);
  }, 120_000);

  it('a nemesis stopped by Ctrl-C or SIGTERM mid-cut removes its namespaces; one killed outright leaves them to the next run', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const child = await nemesisMidFault();
      expect(leftovers(child.pid!).namespaces).toHaveLength(3);
      child.kill(signal);
      expect(await ended(child)).toBe(130);
      expect(leftovers(child.pid!)).toEqual({ namespaces: [], links: [] });
    }
    const child = await nemesisMidFault();
    child.kill('SIGKILL');
    await ended(child);
    expect(leftovers(child.pid!).namespaces).toHaveLength(3);
    // the servers it started may outlive it a moment inside their namespaces; removal does not wait on them
    expect(sweepLeftovers()).toContain(child.pid!);
    expect(leftovers(child.pid!)).toEqual({ namespaces: [], links: [] });
  }, 180_000);
});
