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
import { PeerProxy } from './peer-proxy.ts';

export interface ClusterConfig {
  commit_interval_ms: number;
  /** Omitted: the servers' default (on); false is the paper's mode. */
  check_quorum?: boolean;
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
  /** Sets check_quorum in the config file (absent: the servers' default). */
  checkQuorum?: boolean;
  /** Puts a PeerProxy in front of every node's peer port, so tests can cut the traffic into a
   * node (`cutInbound`) without a firewall. Each node then gets its own config file, in which
   * the other nodes' peer addresses are their proxies. */
  peerProxies?: boolean;
}

export { freePorts } from './ports.ts';

export class NativeCluster {
  readonly processes: (ChildProcess | null)[] = [];
  /** How each node's latest process ended; null while it runs. */
  private readonly lastExit: (string | null)[] = [];
  private readonly logs: WriteStream[] = [];
  private readonly dir: string;
  private readonly configPaths: string[] = [];
  private readonly proxies: PeerProxy[] = [];

  private constructor(
    readonly options: LaunchOptions,
    readonly config: ClusterConfig,
    proxyAddresses: string[] | null,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'replicant-cluster-'));
    const shared = join(this.dir, 'cluster.json');
    writeFileSync(shared, JSON.stringify(config, null, 2));
    for (let id = 0; id < config.peers.length; id++) {
      if (!proxyAddresses) {
        this.configPaths.push(shared);
        continue;
      }
      // Node id listens on its real address and reaches every other node through its proxy.
      const own = { ...config, peers: config.peers.map((a, j) => (j === id ? a : proxyAddresses[j]!)) };
      const path = join(this.dir, `cluster-${id}.json`);
      writeFileSync(path, JSON.stringify(own, null, 2));
      this.configPaths.push(path);
    }
  }

  static async start(options: LaunchOptions): Promise<NativeCluster> {
    const n = options.engines.length;
    const ports = await freePorts((options.peerProxies ? 3 : 2) * n);
    const config: ClusterConfig = {
      commit_interval_ms: options.commitIntervalMs ?? 150,
      ...(options.checkQuorum !== undefined && { check_quorum: options.checkQuorum }),
      peers: ports.slice(0, n).map((p) => `127.0.0.1:${p}`),
      clients: ports.slice(n, 2 * n).map((p) => `127.0.0.1:${p}`),
    };
    const proxyPorts = options.peerProxies ? ports.slice(2 * n) : null;
    const cluster = new NativeCluster(options, config, proxyPorts?.map((p) => `127.0.0.1:${p}`) ?? null);
    if (proxyPorts) {
      for (let id = 0; id < n; id++) {
        cluster.proxies.push(await PeerProxy.listen('127.0.0.1', proxyPorts[id]!, { host: '127.0.0.1', port: ports[id]! }));
      }
    }
    for (let id = 0; id < n; id++) cluster.startNode(id);
    return cluster;
  }

  /** Cuts (or with false heals) every peer message into node id; needs `peerProxies`. */
  cutInbound(id: number, cut = true): void {
    const proxy = this.proxies[id];
    if (!proxy) throw new Error('cutInbound needs a cluster started with peerProxies');
    if (cut) proxy.cut();
    else proxy.heal();
  }

  /** Resets every peer connection into node id (needs `peerProxies`): what the senders had
   * queued is lost, as with a TCP reset. */
  resetInbound(id: number): void {
    const proxy = this.proxies[id];
    if (!proxy) throw new Error('resetInbound needs a cluster started with peerProxies');
    proxy.reset();
  }

  /** Heals every cut; safe to call at any time (tests call it on failure too). */
  healAll(): void {
    for (const p of this.proxies) p.heal();
  }

  get size(): number {
    return this.config.peers.length;
  }

  logPath(id: number): string {
    return join(this.options.logDir ?? this.dir, `node-${id}.log`);
  }

  startNode(id: number): void {
    if (this.processes[id]) throw new Error(`node ${id} is running`);
    let argv = [...serverCommand(this.options.engines[id]!), '--config', this.configPaths[id]!, '--id', String(id)];
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
    await Promise.all(this.proxies.map((p) => p.close()));
    for (const log of this.logs) log?.end();
    // With a logDir the temporary folder holds only the config; without one, the logs too.
    rmSync(this.dir, { recursive: true, force: true });
  }
}
