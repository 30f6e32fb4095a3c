// Every server exits with status 0 on SIGTERM in the states the nemesis can leave it in
// (issue 14): still starting (here: blocked reading its configuration, before it has done
// anything else), the same after the reader of its output has gone (a parent that died: the
// log line it writes on the way out must not stop it), and paused by SIGSTOP when the launcher
// stops the cluster. Each state is
// reached by waiting on it (the server opening a FIFO, a status line), never on a delay.
// REPLICANT_CLUSTER_ENGINES picks the engines (every engine named in it runs).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverCommand } from '../loader/node-loaders.ts';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';
import { StatusReader } from './node-status.ts';

const engines = [...new Set((process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').flatMap((m) => m.split(',') as EngineName[]))];

/** The launcher's grace period between SIGTERM and SIGKILL (NativeCluster.stop's default). */
const GRACE_MS = 3000;

/** How a process ended: "exited with status N" or "was ended by SIG…", as the launcher says it. */
function ended(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve(child.signalCode ? `was ended by ${child.signalCode}` : `exited with status ${child.exitCode}`);
      return;
    }
    child.once('exit', (code, signal) => resolve(signal ? `was ended by ${signal}` : `exited with status ${code}`));
  });
}

/** SIGTERM, then SIGKILL if the grace period runs out; resolves with how it ended and when. */
async function terminate(child: ChildProcess): Promise<{ how: string; ms: number }> {
  const t0 = performance.now();
  const done = ended(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
  const how = await done;
  clearTimeout(timer);
  return { how, ms: Math.round(performance.now() - t0) };
}

describe.each(engines)('%s server on SIGTERM', (engine) => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Starts the server on a FIFO as its configuration and waits until it has opened it. */
  async function startBlockedOnConfig(): Promise<{ child: ChildProcess; output: () => string }> {
    const dir = mkdtempSync(join(tmpdir(), 'replicant-sigterm-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const fifo = join(dir, 'cluster.json');
    execFileSync('mkfifo', [fifo]);
    const [cmd, ...pre] = serverCommand(engine);
    let output = '';
    const child = spawn(cmd!, [...pre, '--config', fifo, '--id', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // a writer's open still pending in the thread pool completes once anyone opens for reading
      closeSync(openSync(fifo, 'r+'));
    });
    // Opening a FIFO for writing returns once the server has opened it for reading: the server
    // is then in its start-up, before any socket, data dir or thread of its own.
    const writer = await Promise.race([open(fifo, 'w'), ended(child).then((how) => Promise.reject(new Error(`the server ${how} before it opened its configuration:\n${output}`)))]);
    cleanups.push(() => writer.close());
    return { child, output: () => output };
  }

  it('exits 0 while still starting (blocked reading its configuration)', async () => {
    const { child, output } = await startBlockedOnConfig();
    const { how, ms } = await terminate(child);
    expect(`${how} (${ms} ms after SIGTERM)`, output()).toMatch(/^exited with status 0 /);
  });

  it('exits 0 while still starting after the reader of its output has gone', async () => {
    const { child } = await startBlockedOnConfig();
    const outputClosed = Promise.all([child.stdout!, child.stderr!].map((s) => new Promise((resolve) => s.once('close', resolve))));
    child.stdout!.destroy();
    child.stderr!.destroy();
    await outputClosed; // the pipes' read ends are closed: a write to them now fails (EPIPE)
    const { how, ms } = await terminate(child);
    expect(`${how} (${ms} ms after SIGTERM)`).toMatch(/^exited with status 0 /);
  });

  it('exits 0 when SIGSTOPped as the launcher stops the cluster', async () => {
    const cluster = await NativeCluster.start({ engines: [engine], statusIntervalMs: FINE_STATUS_INTERVAL_MS });
    cleanups.push(() => cluster.stop(0));
    const status = new StatusReader(cluster.logPath(0));
    await status.nextStatus(120_000); // the server is up: its loop writes status lines
    const child = cluster.processes[0]!;
    child.kill('SIGSTOP');
    await cluster.stop(GRACE_MS);
    expect(cluster.describeExit(0)).toBe('exited with status 0');
  });
});
