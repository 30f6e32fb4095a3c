// Network namespaces for the nemesis's partitions and one-way cuts (issue 14): every node of a
// cluster runs in a namespace of its own, joined to the others by a bridge in the root
// namespace, so a cut touches one node's interface and nothing on loopback, which other jobs
// share. A cut from node a to node b loses, silently, every IP packet a sends to b: a's
// neighbour entry for b is pinned to a hardware address nobody has, so the bridge delivers those
// frames to no one — what a lost link looks like, not a refused connection (a blackhole route
// would fail the sender's writes at once). The kernel here has no tc classifiers or iptables,
// and needs neither. Every name carries the owner's pid, so what a run leaves behind
// when it is killed outright can be found and removed by the next run (`sweepLeftovers`).
// Needs root and iproute2's `ip`.
import { execFileSync } from 'node:child_process';

/** A locally administered unicast address no interface of ours has: frames to it are lost. */
const NOWHERE_MAC = '02:00:00:00:de:ad';

/** The prefix of every namespace, bridge and veth this module makes. */
export const NETNS_PREFIX = 'rn';

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function inNamespace(ns: string, argv: string[]): void {
  execFileSync('ip', ['netns', 'exec', ns, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Why namespaces cannot be made here, or null when they can. */
export function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
  } catch {
    return "network namespaces need iproute2's ip";
  }
  return null;
}

/** The namespaces and links this module made for process `pid` (alive or not). */
export function leftovers(pid: number): { namespaces: string[]; links: string[] } {
  const own = (name: string) => name.startsWith(`${NETNS_PREFIX}${pid}`) && /^[bhn]/.test(name.slice(`${NETNS_PREFIX}${pid}`.length));
  const namespaces = ip(['netns', 'list']).split('\n').map((l) => l.split(' ')[0]!).filter((n) => n !== '' && own(n));
  const links = ip(['-o', 'link', 'show']).split('\n').map((l) => l.split(': ')[1]?.split('@')[0] ?? '').filter((n) => n !== '' && own(n));
  return { namespaces, links };
}

/** Runs ip, and takes "already gone" for done: a namespace's veth ends go with it, a moment later. */
function ipRemove(args: string[]): void {
  try {
    ip(args);
  } catch (e) {
    const stderr = String((e as { stderr?: unknown }).stderr ?? '');
    if (!/Cannot find device|No such file/.test(stderr)) throw e;
  }
}

function removeAll(pid: number): void {
  for (const ns of leftovers(pid).namespaces) {
    // a server a killed nemesis left running in its namespace would keep that namespace alive
    for (const p of ip(['netns', 'pids', ns]).split('\n').filter((l) => /^\d+$/.test(l))) {
      try {
        process.kill(Number(p), 'SIGKILL');
      } catch {
        // gone already
      }
    }
    ipRemove(['netns', 'del', ns]);
  }
  for (const link of leftovers(pid).links) ipRemove(['link', 'del', link]);
}

/** Removes what runs of processes no longer alive left behind (a nemesis killed with SIGKILL):
 * the servers still running in its namespaces, the namespaces, the bridge. */
export function sweepLeftovers(): number[] {
  const pids = new Set<number>();
  const names = [...ip(['netns', 'list']).split('\n').map((l) => l.split(' ')[0]!), ...ip(['-o', 'link', 'show']).split('\n').map((l) => l.split(': ')[1]?.split('@')[0] ?? '')];
  for (const name of names) {
    const m = new RegExp(`^${NETNS_PREFIX}(\\d+)[bhn]`).exec(name);
    if (m) pids.add(Number(m[1]));
  }
  const swept: number[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      removeAll(pid);
      swept.push(pid);
    }
  }
  return swept;
}

/** One cluster's namespaces: node i is `rn<pid>n<i>` at `hosts[i]`. */
export class NetnsLab {
  readonly hosts: string[];
  private readonly namespaces: string[] = [];
  /** the cuts in force, as `from>to` */
  private readonly cuts = new Set<string>();
  private removed = false;

  private constructor(readonly n: number) {
    // a /24 of 10/8 from the pid: two processes' clusters never share a subnet
    const subnet = `10.${(process.pid >> 8) & 255}.${process.pid & 255}`;
    this.hosts = Array.from({ length: n }, (_, i) => `${subnet}.${i + 1}`);
  }

  /** Makes n namespaces and the bridge between them; removes anything half made on failure. */
  static create(n: number): NetnsLab {
    const why = netnsUnavailable();
    if (why) throw new Error(why);
    if (leftovers(process.pid).namespaces.length > 0) throw new Error(`network namespaces of process ${process.pid} exist already (one cluster at a time)`);
    const lab = new NetnsLab(n);
    const p = `${NETNS_PREFIX}${process.pid}`;
    const bridge = `${p}b`;
    const subnet = lab.hosts[0]!.replace(/\.\d+$/, '');
    try {
      ip(['link', 'add', bridge, 'type', 'bridge']);
      ip(['addr', 'add', `${subnet}.254/24`, 'dev', bridge]);
      ip(['link', 'set', bridge, 'up']);
      for (let i = 0; i < n; i++) {
        const ns = `${p}n${i}`;
        const veth = `${p}h${i}`;
        ip(['netns', 'add', ns]);
        lab.namespaces.push(ns);
        ip(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
        ip(['link', 'set', veth, 'master', bridge, 'up']);
        inNamespace(ns, ['ip', 'addr', 'add', `${lab.hosts[i]}/24`, 'dev', 'eth0']);
        inNamespace(ns, ['ip', 'link', 'set', 'eth0', 'up']);
        inNamespace(ns, ['ip', 'link', 'set', 'lo', 'up']);
      }
    } catch (e) {
      try {
        removeAll(process.pid);
      } catch (cleanup) {
        throw new Error(`${(e as Error).message}; removing what was made failed too: ${(cleanup as Error).message}`);
      }
      throw e;
    }
    return lab;
  }

  /** The command that runs argv inside node id's namespace. */
  wrap(id: number, argv: string[]): string[] {
    return ['ip', 'netns', 'exec', this.namespaces[id]!, ...argv];
  }

  /** Drops (or with false, stops dropping) every packet node `from` sends to node `to`. */
  cut(from: number, to: number, on = true): void {
    const key = `${from}>${to}`;
    if (on === this.cuts.has(key)) return;
    // healed, the entry goes and the address is resolved again as usual
    inNamespace(this.namespaces[from]!, on ? ['ip', 'neigh', 'replace', this.hosts[to]!, 'lladdr', NOWHERE_MAC, 'dev', 'eth0', 'nud', 'permanent'] : ['ip', 'neigh', 'del', this.hosts[to]!, 'dev', 'eth0']);
    if (on) this.cuts.add(key);
    else this.cuts.delete(key);
  }

  /** Cuts node id off from every other node, both ways. */
  isolate(id: number, on = true): void {
    for (let j = 0; j < this.n; j++) {
      if (j === id) continue;
      this.cut(id, j, on);
      this.cut(j, id, on);
    }
  }

  /** Every cut in force, as `from>to`. */
  activeCuts(): string[] {
    return [...this.cuts];
  }

  healAll(): void {
    for (const key of [...this.cuts]) {
      const [from, to] = key.split('>').map(Number);
      this.cut(from!, to!, false);
    }
  }

  /** Removes the namespaces and the bridge (idempotent; safe from a signal handler). */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    this.cuts.clear();
    removeAll(process.pid);
  }
}
