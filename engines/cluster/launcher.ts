// Starts a native Replicant cluster on 127.0.0.1: one server process per node, any mix of
// engines, each with its own log. Used by `npm run cluster`, the scripted cluster tests and
// the native benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, createWriteStream, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineName } from '../loader/engine.ts';
import { serverCommand } from '../loader/node-loaders.ts';
import { freePorts } from './ports.ts';
import type { LoopLagSample } from './loop-lag.ts';
import { PeerProxyProcess, type RemotePeerProxy } from './peer-proxy-process.ts';
import { ReplicantClient } from './client.ts';

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
  /** The address each node listens on, by node id (default 127.0.0.1): with `wrap` running each
   * server in a network namespace of its own (nemesis/netns.ts). */
  hosts?: string[];
  /** Where server logs go; a temporary folder by default. */
  logDir?: string;
  /** Sets check_quorum in the config file (absent: the servers' default). */
  checkQuorum?: boolean;
  /** Puts a PeerProxy in front of every node's peer port, so tests can cut the traffic into a
   * node (`cutInbound`) without a firewall. Each node then gets its own config file, in which
   * the other nodes' peer addresses are their proxies. The proxies run in a process of their own
   * (peer-proxy-host.ts), whose event loop nothing else holds up. */
  peerProxies?: boolean;
  /** Starts every server with --test-peer-reset, so `resetInbound` resets links from inside the
   * servers (the reset-peer command, docs/protocol.md "Native servers") with the peers
   * connected directly: no forwarder in the message path. */
  testPeerReset?: boolean;
  /** Durability log: every node keeps its write-ahead log in its own data dir
   * (`dataDirPath(id)`) and a restarted node comes back from it. Absent: durability none (the
   * paper's design), a restarted node starts empty. */
  durability?: 'none' | 'log';
  /** When the write-ahead log is synced (durability log; the servers' default: always). */
  fsync?: 'always' | 'interval' | 'never';
  /** Durability log: a checkpoint (snapshot file, log truncated) every this many executed
   * instances (the servers' default: 4096; docs/protocol.md, "Compaction"). */
  snapshotEvery?: number;
  /** The servers' --status-interval-ms: how often each logs its status line (unset: their
   * default, once a second). Tests that time catch-up set it shorter (reset-failover.ts). */
  statusIntervalMs?: number;
  /** The servers' --log-bound (docs/protocol.md, "Log bound"); unset: their default, 16,384. */
  logBound?: number;
  /** Where the data dirs go; the cluster's temporary folder by default (removed by stop). */
  dataDir?: string;
  /** Called when a node's process ends by itself or is killed (not by stop). */
  onExit?: (id: number, how: string) => void;
}

export { freePorts } from './ports.ts';

export class NativeCluster {
  readonly processes: (ChildProcess | null)[] = [];
  /** How each node's latest process ended; null while it runs. */
  private readonly lastExit: (string | null)[] = [];
  private readonly logs: WriteStream[] = [];
  /** Every process started (restarts too), its log and when its pipes closed: see stop(). */
  private readonly spawned: { child: ChildProcess; log: WriteStream; closed: Promise<unknown> }[] = [];
  private readonly dir: string;
  private readonly configPaths: string[] = [];
  private readonly proxies: RemotePeerProxy[] = [];
  private proxyHost: PeerProxyProcess | null = null;
  /** One connection per node's client port for operator commands (reset-peer). */
  private operator: ReplicantClient | null = null;
  private stopping = false;

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
      peers: ports.slice(0, n).map((p, i) => `${options.hosts?.[i] ?? '127.0.0.1'}:${p}`),
      clients: ports.slice(n, 2 * n).map((p, i) => `${options.hosts?.[i] ?? '127.0.0.1'}:${p}`),
    };
    const proxyPorts = options.peerProxies ? ports.slice(2 * n) : null;
    const cluster = new NativeCluster(options, config, proxyPorts?.map((p) => `127.0.0.1:${p}`) ?? null);
    if (proxyPorts) {
      const host = (cluster.proxyHost = PeerProxyProcess.start());
      for (let id = 0; id < n; id++) {
        cluster.proxies.push(await host.listen('127.0.0.1', proxyPorts[id]!, { host: '127.0.0.1', port: ports[id]! }));
      }
    }
    for (let id = 0; id < n; id++) cluster.startNode(id);
    return cluster;
  }

  /** Cuts (or with false heals) every peer message into node id; needs `peerProxies`. Resolves
   * with when the cut took effect (the proxies' process stamps it: a clock read before the call
   * is early by however late that process runs). */
  async cutInbound(id: number, cut = true): Promise<number> {
    const proxy = this.proxies[id];
    if (!proxy) throw new Error('cutInbound needs a cluster started with peerProxies');
    return cut ? proxy.cut() : proxy.heal();
  }

  /** Resets every peer connection into node id: what the senders had queued is lost, as with a
   * TCP reset. With `testPeerReset` every other running node drops its link to id itself (the
   * reset-peer command; a node that is down has no link to reset); with `peerProxies` the
   * proxy in front of id resets them. Resolves once every reset has been made. */
  async resetInbound(id: number): Promise<void> {
    if (this.options.testPeerReset) {
      const operator = (this.operator ??= new ReplicantClient(this.config.clients));
      const senders = this.processes.flatMap((p, j) => (p && j !== id ? [j] : []));
      await Promise.all(
        senders.map(async (j) => {
          const reply = await operator.raw(j, `reset-peer ${id}`);
          if (reply !== `reset peer ${id}`) throw new Error(`node ${j} answered reset-peer ${id} with ${JSON.stringify(reply)}`);
        }),
      );
      return;
    }
    const proxy = this.proxies[id];
    if (!proxy) throw new Error('resetInbound needs a cluster started with testPeerReset or peerProxies');
    await proxy.reset();
  }

  /** Holds every peer connection into node id (needs `peerProxies`; PeerProxy.hold). */
  async holdInbound(id: number): Promise<void> {
    const proxy = this.proxies[id];
    if (!proxy) throw new Error('holdInbound needs a cluster started with peerProxies');
    await proxy.hold();
  }

  /** Ends holdInbound: the newest line held reaches node id the moment its port accepts (returned). */
  releaseInbound(id: number, timeoutMs: number): Promise<string[]> {
    const proxy = this.proxies[id];
    if (!proxy) throw new Error('releaseInbound needs a cluster started with peerProxies');
    return proxy.release(timeoutMs);
  }

  /** Heals every cut; safe to call at any time (tests call it on failure too). */
  async healAll(): Promise<void> {
    await Promise.all(this.proxies.map((p) => p.heal()));
  }

  /** When the proxies' process ran late so far (no peer message moved meanwhile); empty
   * without proxies. */
  async proxyLoopLag(): Promise<LoopLagSample[]> {
    return this.proxyHost ? this.proxyHost.loopLag() : [];
  }

  get size(): number {
    return this.config.peers.length;
  }

  logPath(id: number): string {
    return join(this.options.logDir ?? this.dir, `node-${id}.log`);
  }

  /** Node id's data dir (durability log), or null in durability none. */
  dataDirPath(id: number): string | null {
    if (this.options.durability !== 'log') return null;
    return join(this.options.dataDir ?? this.dir, `node-${id}-data`);
  }

  /** Empties a stopped node's data dir: a lost disk. It restarts with nothing and must catch
   * up by state transfer. */
  wipe(id: number): void {
    if (this.processes[id]) throw new Error(`node ${id} is running: kill it before wiping its disk`);
    const dir = this.dataDirPath(id);
    if (!dir) throw new Error('wipe needs a cluster started with durability log');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  startNode(id: number): void {
    if (this.processes[id]) throw new Error(`node ${id} is running`);
    let argv = [...serverCommand(this.options.engines[id]!), '--config', this.configPaths[id]!, '--id', String(id)];
    const dataDir = this.dataDirPath(id);
    if (dataDir) {
      mkdirSync(dataDir, { recursive: true });
      argv.push('--data-dir', dataDir);
      if (this.options.fsync) argv.push('--fsync', this.options.fsync);
      if (this.options.snapshotEvery !== undefined) argv.push('--snapshot-every', String(this.options.snapshotEvery));
    }
    if (this.options.logBound !== undefined) argv.push('--log-bound', String(this.options.logBound));
    if (this.options.statusIntervalMs !== undefined) argv.push('--status-interval-ms', String(this.options.statusIntervalMs));
    if (this.options.testPeerReset) argv.push('--test-peer-reset');
    if (this.options.wrap) argv = this.options.wrap(id, argv);
    const log = (this.logs[id] ??= createWriteStream(this.logPath(id), { flags: 'a' }));
    // a proxy that refused while the node was down accepts again (the others redial)
    this.proxies[id]?.accept().catch((e: Error) => log.write(`launcher: node ${id}'s peer proxy cannot listen again: ${e.message}\n`));
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(this.options.env?.(id) ?? {}) },
    });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    // 'exit' can come before the last output: stop() waits for 'close' (or unpipes) before it
    // ends the log, or a late chunk is a write after end that kills the test process.
    this.spawned.push({ child, log, closed: new Promise((r) => child.once('close', r)) });
    child.on('exit', (code, signal) => {
      this.lastExit[id] = signal ? `was ended by ${signal}` : `exited with status ${code}`;
      if (this.processes[id] === child) this.processes[id] = null;
      if (!this.stopping) this.options.onExit?.(id, this.lastExit[id]!);
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
    await this.proxies[id]?.refuse(); // its port is closed now: so is its proxy's
  }

  /** Stops every node (SIGTERM, then SIGKILL after a grace period) and removes temp files. */
  async stop(graceMs = 3000): Promise<void> {
    this.stopping = true;
    this.operator?.close();
    await Promise.all(
      this.processes.map(async (child) => {
        if (!child || child.exitCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // A node paused by SIGSTOP (a test or the nemesis left it so) holds the SIGTERM pending
        // and would sit out the grace period to SIGKILL: resume it, and it handles the SIGTERM.
        child.kill('SIGCONT');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }),
    );
    await Promise.all(this.proxies.map((p) => p.close()));
    await this.proxyHost?.stop();
    const settled = Promise.all(this.spawned.map((s) => s.closed));
    await Promise.race([settled, new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const s of this.spawned) {
      s.child.stdout?.unpipe(s.log);
      s.child.stderr?.unpipe(s.log);
    }
    for (const log of this.logs) log?.end();
    // With a logDir the temporary folder holds only the config; without one, the logs too.
    rmSync(this.dir, { recursive: true, force: true });
  }
}
