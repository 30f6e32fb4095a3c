// The systems a benchmark can start: a Replicant cluster of one engine (through the shared
// NativeCluster launcher) or an etcd cluster (the paper's sanity baseline, §4.4). Both put each
// node in its own cgroup and apply memory the way the paper did for that runtime (§5.1):
// the cgroup limit for C++ and Rust, GOMEMLIMIT for Go (and etcd, a Go program), -Xmx for Java.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { NativeCluster, freePorts } from '@replicant/engines/cluster/launcher';
import { ReplicantClient } from '@replicant/engines/cluster/client';
import { ENGINE_NAMES, languageOf, type EngineName, type Language } from '@replicant/engines/loader/catalogue';
import { BENCH_DIR } from './ycsb.ts';

/** The four engines (in the catalogue's order), then etcd, the paper's baseline. */
export const SYSTEMS: readonly SystemName[] = [...ENGINE_NAMES, 'etcd'];
export type SystemName = EngineName | 'etcd';

export function languageOfSystem(system: SystemName): Language | 'etcd' {
  return system === 'etcd' ? 'etcd' : languageOf(system);
}

export const ETCD_BINARY = join(BENCH_DIR, 'etcd/dist/etcd');

const MIB = 2 ** 20;

export interface MemoryPlan {
  /** memory.limit_in_bytes of each node's cgroup. */
  cgroup_limit_bytes?: number;
  /** True when the cgroup limit is only a guard for the shared machine, not the paper's limit. */
  cgroup_is_guard: boolean;
  env: Record<string, string>;
  /** How the limit was applied, for the result's note. */
  how: string;
}

/**
 * How a per-node memory limit is applied to a runtime. GC'd runtimes also get a generous cgroup
 * guard so a runaway node cannot take the shared machine down; it is far above the runtime's own
 * limit and never the binding constraint.
 */
export function memoryPlan(system: SystemName, limit_bytes: number | undefined, gcLogPath: string): MemoryPlan {
  const guard = (b: number) => Math.max(2 * b, b + 512 * MIB);
  switch (system) {
    case 'cpp':
    case 'rust':
      return { cgroup_limit_bytes: limit_bytes, cgroup_is_guard: false, env: {}, how: limit_bytes ? 'cgroup memory.limit_in_bytes' : 'no limit' };
    case 'go':
    case 'etcd':
      return {
        cgroup_limit_bytes: limit_bytes ? guard(limit_bytes) : undefined,
        cgroup_is_guard: true,
        env: { GODEBUG: 'gctrace=1', ...(limit_bytes ? { GOMEMLIMIT: String(Math.floor(limit_bytes)) } : {}) },
        how: limit_bytes ? 'GOMEMLIMIT (cgroup guard at 2x)' : 'no limit',
      };
    case 'java': {
      const opts = ['-XX:+UseG1GC', `-Xlog:gc*:file=${gcLogPath}:uptime,level,tags`];
      if (limit_bytes) opts.unshift(`-Xmx${Math.max(8, Math.floor(limit_bytes / MIB))}m`);
      return {
        cgroup_limit_bytes: limit_bytes ? guard(limit_bytes) + 256 * MIB : undefined,
        cgroup_is_guard: true,
        env: { REPLICANT_JAVA_OPTS: opts.join(' ') },
        how: limit_bytes ? '-Xmx (G1 forced: with one CPU the JVM would pick Serial; cgroup guard at 2x + 256 MiB)' : 'no limit (G1)',
      };
    }
  }
}

export interface RunningSystem {
  readonly name: SystemName;
  readonly size: number;
  /** The YCSB binding class and its properties. */
  readonly ycsbDb: string;
  ycsbProperties(): Record<string, string>;
  pid(id: number): number | null;
  alive(id: number): boolean;
  /** Seconds-since-epoch when node `id` was (last) started, to align GC logs. */
  startedAt(id: number): number;
  logPath(id: number): string;
  gcLogPath(id: number): string;
  /** The current leader, or null during an election / when it cannot be told. */
  leader(): Promise<number | null>;
  stop(): Promise<void>;
}

/** When a node's write-ahead log is synced (the servers' --fsync, docs/protocol.md): always —
 * one fdatasync per group of records before the replies they allow; interval — a background
 * sync every 10 ms; never — left to the kernel. */
export type FsyncPolicy = 'always' | 'interval' | 'never';
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'interval', 'never'];

export interface StartOptions {
  system: SystemName;
  nodes: number;
  logDir: string;
  env: (id: number) => Record<string, string>;
  wrap: (id: number, argv: string[]) => string[];
  /** The engines' durability (etcd ignores it: it keeps its own WAL); data dirs go in logDir. */
  durability?: 'none' | 'log';
  fsync?: FsyncPolicy | null;
}

export async function startSystem(o: StartOptions): Promise<RunningSystem> {
  mkdirSync(o.logDir, { recursive: true });
  return o.system === 'etcd' ? EtcdCluster.start(o) : ReplicantSystem.start(o);
}

class ReplicantSystem implements RunningSystem {
  readonly ycsbDb = 'lab.replicant.ycsb.ReplicantClient';
  private readonly started: number[] = [];
  private readonly probe: ReplicantClient;

  private constructor(readonly name: SystemName, private readonly cluster: NativeCluster, private readonly o: StartOptions) {
    this.probe = new ReplicantClient(cluster.config.clients, { timeoutMs: 1000 });
  }

  static async start(o: StartOptions): Promise<ReplicantSystem> {
    const t = Date.now() / 1000;
    const cluster = await NativeCluster.start({
      engines: Array.from({ length: o.nodes }, () => o.system as EngineName),
      env: o.env,
      wrap: o.wrap,
      logDir: o.logDir,
      durability: o.durability ?? 'none',
      ...(o.fsync ? { fsync: o.fsync } : {}),
      dataDir: o.logDir,
    });
    const s = new ReplicantSystem(o.system, cluster, o);
    for (let id = 0; id < o.nodes; id++) s.started[id] = t;
    return s;
  }

  get size() {
    return this.cluster.size;
  }
  ycsbProperties() {
    return { 'replicant.hosts': this.cluster.config.clients.join(',') };
  }
  pid(id: number) {
    return this.cluster.processes[id]?.pid ?? null;
  }
  alive(id: number) {
    const p = this.cluster.processes[id];
    return !!p && p.exitCode === null && p.signalCode === null;
  }
  startedAt(id: number) {
    return this.started[id]!;
  }
  logPath(id: number) {
    return this.cluster.logPath(id);
  }
  gcLogPath(id: number) {
    return this.name === 'java' ? join(this.o.logDir, `gc-node-${id}.log`) : this.logPath(id);
  }

  async leader(): Promise<number | null> {
    // A follower answers `leader is N` at once; the leader answers the read itself.
    for (let id = 0; id < this.size; id++) {
      if (!this.alive(id)) continue;
      try {
        const reply = await this.probe.raw(id, 'get __bench_leader_probe', 1000);
        const m = /^leader is (\d+)$/.exec(reply);
        if (m) return Number(m[1]);
        if (reply === 'retry') return null;
        return id;
      } catch {
        // try the next node
      }
    }
    return null;
  }

  async stop() {
    this.probe.close();
    await this.cluster.stop();
  }
}

/** A 3-member etcd cluster on loopback, data on /dev/shm (the paper used a RAM disk, §4.4). */
class EtcdCluster implements RunningSystem {
  readonly name = 'etcd' as const;
  readonly ycsbDb = 'lab.replicant.ycsb.EtcdClient';
  private readonly processes: (ChildProcess | null)[] = [];
  private readonly logs: WriteStream[] = [];
  private readonly started: number[] = [];

  private constructor(private readonly o: StartOptions, private readonly peerPorts: number[], private readonly clientPorts: number[], private readonly dataDir: string) {}

  static async start(o: StartOptions): Promise<EtcdCluster> {
    if (!existsSync(ETCD_BINARY)) throw new Error(`${ETCD_BINARY} is missing: run \`bash bench/build.sh\` (npm run build does it)`);
    const ports = await freePorts(2 * o.nodes);
    const dataDir = join(existsSync('/dev/shm') ? '/dev/shm' : o.logDir, `replicant-bench-etcd-${process.pid}-${Date.now()}`);
    const c = new EtcdCluster(o, ports.slice(0, o.nodes), ports.slice(o.nodes), dataDir);
    for (let id = 0; id < o.nodes; id++) c.startMember(id);
    return c;
  }

  get size() {
    return this.o.nodes;
  }

  private startMember(id: number) {
    const initial = this.peerPorts.map((p, i) => `m${i}=http://127.0.0.1:${p}`).join(',');
    const peer = `http://127.0.0.1:${this.peerPorts[id]}`;
    const client = `http://127.0.0.1:${this.clientPorts[id]}`;
    let argv = [
      ETCD_BINARY, '--name', `m${id}`, '--data-dir', join(this.dataDir, `m${id}`),
      '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
      '--listen-client-urls', client, '--advertise-client-urls', client,
      '--initial-cluster', initial, '--initial-cluster-token', `bench-${process.pid}`, '--initial-cluster-state', 'new',
      '--log-level', 'warn', '--quota-backend-bytes', String(8 * 2 ** 30),
    ];
    argv = this.o.wrap(id, argv);
    const log = (this.logs[id] ??= createWriteStream(this.logPath(id), { flags: 'a' }));
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...this.o.env(id) } });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    this.processes[id] = child;
    this.started[id] = Date.now() / 1000;
  }

  ycsbProperties() {
    return { 'etcd.endpoints': this.clientPorts.map((p) => `http://127.0.0.1:${p}`).join(',') };
  }
  pid(id: number) {
    return this.processes[id]?.pid ?? null;
  }
  alive(id: number) {
    const p = this.processes[id];
    return !!p && p.exitCode === null && p.signalCode === null;
  }
  startedAt(id: number) {
    return this.started[id]!;
  }
  logPath(id: number) {
    return join(this.o.logDir, `node-${id}.log`);
  }
  gcLogPath(id: number) {
    return this.logPath(id);
  }

  async leader(): Promise<number | null> {
    for (let id = 0; id < this.size; id++) {
      try {
        const r = await fetch(`http://127.0.0.1:${this.clientPorts[id]}/metrics`, { signal: AbortSignal.timeout(1000) });
        if (/^etcd_server_is_leader 1$/m.test(await r.text())) return id;
      } catch {
        // not up yet, or down
      }
    }
    return null;
  }

  async stop() {
    await Promise.all(
      this.processes.map(async (child) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }),
    );
    for (const l of this.logs) l?.end();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Reads a node's GC log text ('' when there is none yet). */
export function readGcLog(system: RunningSystem, id: number): string {
  try {
    return readFileSync(system.gcLogPath(id), 'utf8');
  } catch {
    return '';
  }
}
