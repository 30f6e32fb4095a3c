// Starts a native Replicant cluster on 127.0.0.1: one server process per node, any mix of
// engines, each with its own log. Used by `npm run cluster`, the scripted cluster tests and
// the native benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, createWriteStream, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineName } from '../loader/engine.ts';
import { serverCommand } from '../loader/node-loaders.ts';
import { freePorts } from './ports.ts';

export interface ClusterConfig {
  commit_interval_ms: number;
  peers: string[];
  clients: string[];
}

export interface LaunchOptions {
  engines: EngineName[];
  commitIntervalMs?: number;
  /** Per-node environment additions (e.g. GOMEMLIMIT), by node id. */
  env?: (id: number) => Record<string, string>;
  /** Wraps each server command, e.g. to run it inside a cgroup. */
  wrap?: (id: number, argv: string[]) => string[];
  /** Where server logs go; a temporary folder by default. */
  logDir?: string;
}

export { freePorts } from './ports.ts';

export class NativeCluster {
  readonly processes: (ChildProcess | null)[] = [];
  /** How each node's latest process ended; null while it runs. */
  private readonly lastExit: (string | null)[] = [];
  private readonly logs: WriteStream[] = [];
  private readonly dir: string;
  private readonly configPath: string;

  private constructor(
    readonly options: LaunchOptions,
    readonly config: ClusterConfig,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'replicant-cluster-'));
    this.configPath = join(this.dir, 'cluster.json');
    writeFileSync(this.configPath, JSON.stringify(config, null, 2));
  }

  static async start(options: LaunchOptions): Promise<NativeCluster> {
    const n = options.engines.length;
    const ports = await freePorts(2 * n);
    const config: ClusterConfig = {
      commit_interval_ms: options.commitIntervalMs ?? 150,
      peers: ports.slice(0, n).map((p) => `127.0.0.1:${p}`),
      clients: ports.slice(n).map((p) => `127.0.0.1:${p}`),
    };
    const cluster = new NativeCluster(options, config);
    for (let id = 0; id < n; id++) cluster.startNode(id);
    return cluster;
  }

  get size(): number {
    return this.config.peers.length;
  }

  logPath(id: number): string {
    return join(this.options.logDir ?? this.dir, `node-${id}.log`);
  }

  startNode(id: number): void {
    if (this.processes[id]) throw new Error(`node ${id} is running`);
    let argv = [...serverCommand(this.options.engines[id]!), '--config', this.configPath, '--id', String(id)];
    if (this.options.wrap) argv = this.options.wrap(id, argv);
    const log = (this.logs[id] ??= createWriteStream(this.logPath(id), { flags: 'a' }));
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(this.options.env?.(id) ?? {}) },
    });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    child.on('exit', (code, signal) => {
      this.lastExit[id] = signal ? `was ended by ${signal}` : `exited with status ${code}`;
      if (this.processes[id] === child) this.processes[id] = null;
    });
    this.lastExit[id] = null;
    this.processes[id] = child;
  }

  /** "is running", "exited with status 2", "was ended by SIGKILL": for test failure messages. */
  describeExit(id: number): string {
    return this.lastExit[id] ?? (this.processes[id] ? 'is running' : 'was never started');
  }

  /** Kills a node at once (SIGKILL): a crash, not a shutdown. */
  async kill(id: number): Promise<void> {
    const child = this.processes[id];
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** Stops every node (SIGTERM, then SIGKILL after a grace period) and removes temp files. */
  async stop(graceMs = 3000): Promise<void> {
    await Promise.all(
      this.processes.map(async (child) => {
        if (!child || child.exitCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }),
    );
    for (const log of this.logs) log?.end();
    // With a logDir the temporary folder holds only the config; without one, the logs too.
    rmSync(this.dir, { recursive: true, force: true });
  }
}
