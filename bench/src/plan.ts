// Options, presets and the plan: which settings to measure, with what limits. Pure: the same
// options always give the same plan, and `--dry-run` prints it without starting anything.
import { FSYNC_POLICIES, SYSTEMS, type FsyncPolicy, type SystemName } from './systems.ts';

/** Bytes of one record as the paper counts its raw data: 23-byte key + 500-byte value (§4.3). */
export const RECORD_BYTES = 523;
/** The paper's memory:data ratios: 32, 8, 6 and 5 GiB over ≈4 GiB of raw data (§5.1). */
export const PAPER_RATIOS = [8, 2, 1.5, 1.25];
export const PAPER_VCPUS = [8, 4, 2];

export type PresetName = 'smoke' | 'scaled' | 'paper';

export interface BenchOptions {
  systems: SystemName[];
  workloads: ('a' | 'b')[];
  /** A custom property file instead of workloads a/b. */
  workload_file?: string;
  records: number;
  /** Per-node memory, either absolute (GiB) or as memory:data ratios. */
  mem_gib?: number[];
  ratios?: number[];
  /** Paper-equivalent vCPUs per node (8, 4, 2). */
  vcpus: number[];
  /** Cores of this machine that one paper vCPU stands for (scaled: 1/8). */
  cores_per_vcpu: number;
  /** cpuset of the load generator and of the server nodes. */
  loadgen_cpus: string;
  node_cpus: string;
  /** The p99 target; 'auto' derives it the paper's way (§5.1): 10 × the mean latency at low load. */
  slo_ms: number;
  slo_auto: boolean;
  /** Before each probe, wait (up to quiet_wait_s) until other tenants use at most this many cores. */
  quiet_cores: number;
  quiet_wait_s: number;
  /**
   * A probe is disturbed when, during its measured window, processes outside the benchmark used
   * more than disturbed_cores cores or the hypervisor stole more than disturbed_steal of the
   * CPU time; it is then repeated at most disturbed_retries times.
   */
  disturbed_cores: number;
  disturbed_steal: number;
  disturbed_retries: number;
  /**
   * cpu.shares of every group the harness makes (nodes, load generator): its CFS weight against
   * the other processes at the hierarchy's root (1024 each at nice 0). Above 1024 the probes are
   * judged by the benchmark's own run-queue wait (disturbed_wait_us), not by others' cores.
   */
  cpu_shares: number;
  /** A probe is disturbed when the benchmark's threads waited more than this per CPU slice. */
  disturbed_wait_us: number;
  threads: number;
  duration_s: number;
  warmup_s: number;
  min_rate: number;
  /** Upper end of the search; 0: measure the closed-loop saturation rate and start 10 % above. */
  max_rate: number;
  tolerance: number;
  max_probes: number;
  repetitions: number;
  nodes: number;
  out_dir?: string;
  /** auto: add each system's measured fixed footprint to ratio-derived limits (scaled runs). */
  memory_baseline: 'auto' | 'none';
  dry_run: boolean;
  preset: PresetName;
  /** An Ansible inventory: run on its hosts (3 servers, 1 client) instead of this machine. */
  hosts?: string;
  /** The engines' durability (docs/protocol.md, "Durability"): none (the paper's design) and/or
   * log (a write-ahead log per node, synced by each of `fsyncs`). etcd keeps its own WAL. */
  durabilities: ('none' | 'log')[];
  fsyncs: FsyncPolicy[];
  /** GC mitigation the Go and Java servers run (their --mitigation; docs/mitigation.md). */
  mitigation: Mitigation;
  /** Start each search from the rate that decided the same setting's previous repetition, else the
   * previous memory size of the same system,
   * workload, vCPUs, mode and repetition (bisect.ts, hint_ops_per_s); --cold-search turns it off. */
  warm_start: boolean;
  /** Stop a search probe once its window's p99 is over the SLO for certain (early-stop.ts), and
   * report it missed with the counts that decided it; --early-stop turns it on. Off by default:
   * the reference runs measure every window whole. */
  early_stop: boolean;
}

export type Mitigation = 'none' | 'blade' | 'mitmem' | 'both';
export const MITIGATIONS: readonly Mitigation[] = ['none', 'blade', 'mitmem', 'both'];

export const PRESETS: Record<PresetName, Partial<BenchOptions>> = {
  // End to end in a few minutes: one setting per system, short probes, coarse bisection.
  smoke: { workloads: ['a'], records: 20_000, ratios: [8], vcpus: [8], duration_s: 5, warmup_s: 2, tolerance: 0.3, max_probes: 4, repetitions: 1, quiet_wait_s: 5 },
  // This machine kind (2 cores, 24 GiB): the paper's ratios on 100 k records (52 MB of raw
  // data, so 419/105/78/65 MB per node), one core for the three nodes.
  scaled: { workloads: ['a', 'b'], records: 100_000, ratios: PAPER_RATIOS, vcpus: [8], duration_s: 15, warmup_s: 5, tolerance: 0.1, max_probes: 7, repetitions: 3 },
  // The paper's full size (§4.3, §5.1), for a machine with 3 × 8 cores for nodes plus the load
  // generator's: 7.5 M records, 32/8/6/5 GiB, 8/4/2 vCPUs, 10-minute runs after 20 s warm-up.
  paper: {
    workloads: ['a', 'b'], records: 7_500_000, mem_gib: [32, 8, 6, 5], vcpus: PAPER_VCPUS, cores_per_vcpu: 1,
    duration_s: 600, warmup_s: 20, tolerance: 0.05, max_probes: 10, repetitions: 3, memory_baseline: 'none',
  },
};

export const DEFAULTS: BenchOptions = {
  mitigation: 'none',
  warm_start: true,
  early_stop: false,
  systems: ['go'],
  workloads: ['a'],
  records: 100_000,
  vcpus: [8],
  cores_per_vcpu: 1 / 8,
  loadgen_cpus: '0',
  node_cpus: '1',
  slo_ms: 20,
  slo_auto: false,
  quiet_cores: 1,
  quiet_wait_s: 60,
  disturbed_cores: 0.25,
  disturbed_steal: 0.05,
  disturbed_retries: 2,
  cpu_shares: 262_144,
  disturbed_wait_us: 500,
  threads: 64,
  duration_s: 15,
  warmup_s: 5,
  min_rate: 100,
  max_rate: 0,
  tolerance: 0.1,
  max_probes: 7,
  repetitions: 3,
  nodes: 3,
  memory_baseline: 'auto',
  dry_run: false,
  preset: 'scaled',
  durabilities: ['none'],
  fsyncs: ['always'],
};

export class UsageError extends Error {}

/** Above the kernel's default weight, others' CPU no longer measures what they took from us. */
export function judgeByWait(o: BenchOptions): boolean {
  return o.cpu_shares > 1024;
}

function list(v: string, what: string): string[] {
  const items = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (!items.length) throw new UsageError(`${what}: empty list`);
  return items;
}

function positiveNumbers(v: string, what: string): number[] {
  return list(v, what).map((s) => {
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${what}: not a positive number: ${JSON.stringify(s)}`);
    return n;
  });
}

function positiveInt(v: string, what: string, min = 1): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${what} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** Turns parsed flag values (strings) into options: preset first, then the flags over it. */
export function resolveOptions(flags: Record<string, string | boolean | undefined>): BenchOptions {
  const preset = (flags.preset ?? 'scaled') as string;
  if (!(preset in PRESETS)) throw new UsageError(`--preset must be smoke, scaled or paper, got ${JSON.stringify(preset)}`);
  const o: BenchOptions = { ...DEFAULTS, ...PRESETS[preset as PresetName], preset: preset as PresetName };
  const s = (k: string) => (typeof flags[k] === 'string' ? (flags[k] as string) : undefined);

  const engine = s('engine') ?? 'go';
  o.systems = engine === 'all' ? [...SYSTEMS] : (list(engine, '--engine') as SystemName[]);
  for (const e of o.systems) if (!SYSTEMS.includes(e)) throw new UsageError(`--engine: unknown ${JSON.stringify(e)}; choose from ${SYSTEMS.join(', ')} or all`);

  if (s('workload')) {
    const w = list(s('workload')!, '--workload');
    for (const x of w) if (x !== 'a' && x !== 'b') throw new UsageError(`--workload must be a, b or a,b (or use --workload-file), got ${JSON.stringify(x)}`);
    o.workloads = w as ('a' | 'b')[];
  }
  if (s('workload-file')) o.workload_file = s('workload-file');
  if (s('records')) o.records = positiveInt(s('records')!, '--records', 10);
  if (s('mem-gib') && s('ratio')) throw new UsageError('give --mem-gib or --ratio, not both');
  if (s('mem-gib')) (o.mem_gib = positiveNumbers(s('mem-gib')!, '--mem-gib')), (o.ratios = undefined);
  if (s('ratio')) (o.ratios = positiveNumbers(s('ratio')!, '--ratio')), (o.mem_gib = undefined);
  if (s('vcpus')) o.vcpus = positiveNumbers(s('vcpus')!, '--vcpus').map((n) => positiveInt(String(n), '--vcpus'));
  if (s('cores-per-vcpu')) o.cores_per_vcpu = positiveNumbers(s('cores-per-vcpu')!, '--cores-per-vcpu')[0]!;
  for (const [flag, key] of [['loadgen-cpus', 'loadgen_cpus'], ['node-cpus', 'node_cpus']] as const) {
    const v = s(flag);
    if (v !== undefined) {
      if (!CPU_LIST.test(v)) throw new UsageError(`--${flag} must be a cpu list like 0 or 0-1 or 1,3, got ${JSON.stringify(v)}`);
      o[key] = v;
    }
  }
  if (s('slo-ms') === 'auto') o.slo_auto = true;
  else if (s('slo-ms')) o.slo_ms = positiveNumbers(s('slo-ms')!, '--slo-ms')[0]!;
  if (s('quiet-cores')) o.quiet_cores = positiveNumbers(s('quiet-cores')!, '--quiet-cores')[0]!;
  if (s('quiet-wait-s')) o.quiet_wait_s = positiveInt(s('quiet-wait-s')!, '--quiet-wait-s', 0);
  if (s('disturbed-cores')) o.disturbed_cores = positiveNumbers(s('disturbed-cores')!, '--disturbed-cores')[0]!;
  if (s('disturbed-steal')) {
    o.disturbed_steal = positiveNumbers(s('disturbed-steal')!, '--disturbed-steal')[0]!;
    if (o.disturbed_steal >= 1) throw new UsageError('--disturbed-steal is a share below 1 (e.g. 0.05 for 5 %)');
  }
  if (s('disturbed-retries')) o.disturbed_retries = positiveInt(s('disturbed-retries')!, '--disturbed-retries', 0);
  if (s('cpu-shares')) {
    o.cpu_shares = positiveInt(s('cpu-shares')!, '--cpu-shares', 2);
    if (o.cpu_shares > 262_144) throw new UsageError(`--cpu-shares must be 2 to 262144 (the kernel's range; 1024 is its default), got ${o.cpu_shares}`);
  }
  if (s('disturbed-wait-us')) o.disturbed_wait_us = positiveNumbers(s('disturbed-wait-us')!, '--disturbed-wait-us')[0]!;
  if (s('threads')) o.threads = positiveInt(s('threads')!, '--threads');
  if (s('duration-s')) o.duration_s = positiveInt(s('duration-s')!, '--duration-s', 2);
  if (s('warmup-s')) o.warmup_s = positiveInt(s('warmup-s')!, '--warmup-s', 0);
  if (s('min-rate')) o.min_rate = positiveInt(s('min-rate')!, '--min-rate');
  if (s('max-rate')) o.max_rate = positiveInt(s('max-rate')!, '--max-rate', 0);
  if (s('tolerance')) o.tolerance = positiveNumbers(s('tolerance')!, '--tolerance')[0]!;
  if (!(o.tolerance < 1)) throw new UsageError('--tolerance must be below 1 (e.g. 0.1 for 10 %)');
  if (s('max-probes')) o.max_probes = positiveInt(s('max-probes')!, '--max-probes', 2);
  if (s('repetitions')) o.repetitions = positiveInt(s('repetitions')!, '--repetitions');
  if (s('nodes')) o.nodes = positiveInt(s('nodes')!, '--nodes');
  if (s('out')) o.out_dir = s('out');
  if (s('memory-baseline')) {
    const b = s('memory-baseline');
    if (b !== 'auto' && b !== 'none') throw new UsageError(`--memory-baseline must be auto or none, got ${JSON.stringify(b)}`);
    o.memory_baseline = b;
  }
  if (s('durability')) {
    const d = list(s('durability')!, '--durability');
    for (const x of d) if (x !== 'none' && x !== 'log') throw new UsageError(`--durability must be none, log or none,log, got ${JSON.stringify(x)}`);
    o.durabilities = [...new Set(d)] as ('none' | 'log')[];
  }
  if (s('fsync')) {
    const f = list(s('fsync')!, '--fsync');
    for (const x of f) {
      if (!FSYNC_POLICIES.includes(x as FsyncPolicy)) throw new UsageError(`--fsync must be always, interval or never (or a list of them), got ${JSON.stringify(x)}`);
    }
    if (!o.durabilities.some((d) => d === 'log')) throw new UsageError('--fsync needs --durability log');
    o.fsyncs = [...new Set(f)] as FsyncPolicy[];
  }
  o.dry_run = flags['dry-run'] === true;
  if (flags['cold-search'] === true) o.warm_start = false;
  if (flags['early-stop'] === true) o.early_stop = true;
  if (s('hosts')) {
    o.hosts = s('hosts');
    // The memory rule is the preset's and --memory-baseline's, as on one machine (withFootprint):
    // at a scaled data set a runtime's own memory is no rounding error on a host either
    // (data/native/2026-11-27-hosts: 20 MiB at ratio 2 and the JVM, C++ and Rust could not load).
    if (!s('cores-per-vcpu')) o.cores_per_vcpu = 1;
    // the hosts path runs YCSB through Ansible and reads its logs after the probe only
    if (o.early_stop) throw new UsageError('--early-stop works on one machine only, not with --hosts');
  }
  if (s('mitigation')) {
    const m = s('mitigation') as Mitigation;
    if (!MITIGATIONS.includes(m)) throw new UsageError(`--mitigation must be none, blade, mitmem or both, got ${JSON.stringify(m)}`);
    const other = o.systems.filter((x) => x !== 'go' && x !== 'java');
    if (m !== 'none' && other.length) {
      throw new UsageError(`--mitigation ${m}: only the Go and Java servers have a collector to mitigate, not ${other.join(', ')}`);
    }
    o.mitigation = m;
  }
  if (o.max_rate && o.max_rate <= o.min_rate) throw new UsageError(`--max-rate (${o.max_rate}) must exceed --min-rate (${o.min_rate})`);
  if (!o.mem_gib && !o.ratios) o.ratios = [8];
  return o;
}

export interface Setting {
  /** Stable slug: system, workload, memory and vCPUs, repetition. */
  id: string;
  system: SystemName;
  workload: 'a' | 'b' | 'custom';
  workload_file?: string;
  records: number;
  raw_data_bytes: number;
  ratio: number | null;
  /** Per-node memory limit. For ratios: ratio × raw data, plus `baseline_bytes` once measured. */
  memory_bytes: number;
  /** The system's fixed footprint added to a ratio-derived limit (0 until measured, or none). */
  baseline_bytes: number;
  vcpus: number;
  cpu_quota_cores: number | null;
  repetition: number;
  /** none: nothing persisted (the paper's); log: the write-ahead log, synced per `fsync`.
   * etcd always runs with its own WAL and is measured once per setting. */
  durability: 'none' | 'log';
  fsync: FsyncPolicy | null;
}

/** What a warm start carries over: everything of a setting but its memory size (warmStart). */
export function warmStartKey(s: Setting): string {
  return [s.system, s.workload, s.vcpus, s.durability, s.fsync ?? '', s.repetition].join('/');
}

/** The durability settings a plan measures: none, then log with each fsync policy. */
export function durabilityModes(o: BenchOptions): { durability: 'none' | 'log'; fsync: FsyncPolicy | null }[] {
  const modes: { durability: 'none' | 'log'; fsync: FsyncPolicy | null }[] = [];
  for (const d of o.durabilities) {
    if (d === 'none') modes.push({ durability: 'none', fsync: null });
    else for (const f of o.fsyncs) modes.push({ durability: 'log', fsync: f });
  }
  return modes;
}

const GIB = 2 ** 30;

export function slug(x: number): string {
  return String(x).replace('.', 'p');
}

/**
 * Every setting, in the order they run: repetitions outermost, then workload, memory and vCPUs,
 * with the systems innermost — so the systems compared at one setting run minutes apart, under
 * similar background load on a shared machine — and their order reversed on odd repetitions.
 */
export function buildPlan(o: BenchOptions): Setting[] {
  const raw = o.records * RECORD_BYTES;
  const memories = o.mem_gib
    ? o.mem_gib.map((g) => ({ ratio: null as number | null, bytes: g * GIB }))
    : o.ratios!.map((r) => ({ ratio: r as number | null, bytes: r * raw }));
  const workloads: ('a' | 'b' | 'custom')[] = o.workload_file ? ['custom'] : o.workloads;
  const out: Setting[] = [];
  for (let rep = 1; rep <= o.repetitions; rep++) {
    const systems = rep % 2 === 0 ? [...o.systems].reverse() : o.systems;
    for (const workload of workloads) {
      for (const m of memories) {
        for (const vcpus of o.vcpus) {
          for (const system of systems) {
            // etcd once (its own WAL); the modes in turn, reversed on even repetitions like the systems
            const modes = rep % 2 === 0 ? durabilityModes(o).reverse() : durabilityModes(o);
            for (const mode of system === 'etcd' ? modes.slice(0, 1) : modes) {
              const quota = vcpus * o.cores_per_vcpu;
              const memPart = m.ratio !== null ? `r${slug(m.ratio)}` : `${slug(m.bytes / GIB)}gib`;
              // durability none keeps the ids of runs made before the setting existed
              const durPart = system !== 'etcd' && mode.durability === 'log' ? `-log-fsync-${mode.fsync}` : '';
              out.push({
                id: `${system}-${workload}${durPart}-${memPart}-${vcpus}vcpu${o.mitigation === 'none' ? '' : `-${o.mitigation}`}-rep${rep}`,
                system,
                workload,
                ...(o.workload_file ? { workload_file: o.workload_file } : {}),
                records: o.records,
                raw_data_bytes: raw,
                ratio: m.ratio,
                memory_bytes: Math.round(m.bytes),
                baseline_bytes: 0,
                vcpus,
                // A quota of a whole cpuset or more is no limit at all; leave it off.
                cpu_quota_cores: quota >= cpuCount(o.node_cpus) ? null : quota,
                repetition: rep,
                durability: system === 'etcd' ? 'log' : mode.durability,
                fsync: system === 'etcd' ? 'always' : mode.fsync,
              });
            }
          }
        }
      }
    }
  }
  return out;
}

/** Whether a setting's limit gets the system's measured fixed footprint added (withFootprint). */
export function footprintApplies(s: Setting, o: BenchOptions): boolean {
  return s.ratio !== null && o.memory_baseline === 'auto';
}

/**
 * The setting with its per-node memory limit: ratio × raw data plus the system's measured fixed
 * footprint. The one rule for a run on this machine and on hosts alike.
 */
export function withFootprint(s: Setting, footprint_bytes: number): Setting {
  return { ...s, baseline_bytes: footprint_bytes, memory_bytes: Math.round(s.ratio! * s.raw_data_bytes) + footprint_bytes };
}

/** Number of CPUs in a cpu list such as "0-1,3". */
export function cpuCount(list: string): number {
  return list.split(',').reduce((n, part) => {
    const [a, b] = part.split('-').map(Number);
    return n + (b === undefined ? 1 : b - a! + 1);
  }, 0);
}

/** A rough upper bound of the time a plan takes, for the dry run and the progress line. */
export function estimateSeconds(o: BenchOptions, settings: Setting[]): number {
  const probe = o.warmup_s + o.duration_s + 4; // + JVM start and tear-down
  const perSetting = 15 /* start, election */ + o.records / 5000 /* load */ + probe /* saturation */ + o.max_probes * probe;
  return Math.round(settings.length * perSetting);
}

export function describePlan(o: BenchOptions, settings: Setting[]): string {
  const lines = [
    `plan: ${settings.length} setting(s), preset ${o.preset}, about ${Math.ceil(estimateSeconds(o, settings) / 60)} min at most`,
    `  ${o.nodes} nodes per cluster; YCSB ${o.threads} threads, intended p99 ≤ ${o.slo_auto ? '10 × the mean latency at the minimum rate (measured on the first setting, as §5.1 chose 20 ms)' : `${o.slo_ms} ms`}; probes of ${o.warmup_s} s warm-up + ${o.duration_s} s measured`,
    ...(o.hosts
      ? [
          `  on separate hosts (Ansible inventory ${o.hosts}): one node per host of its servers group, YCSB on its client host`,
          '  each node in its own resource group on its host (cgroup v1, v2 or systemd-run) with the memory limit below; no cpu.shares, cpusets or schedstat there',
          '  interference on the hosts is not measured (their /proc is not read): no probe is judged by other tenants\' CPU or repeated for it (only a stalled YCSB interval log marks one disturbed)',
        ]
      : judgeByWait(o)
      ? [
          `  cpu.shares ${o.cpu_shares} on every node's and the load generator's group (a plain process has 1024): others get mostly the cycles the benchmark leaves idle`,
          `  a probe is disturbed when the benchmark's threads wait > ${o.disturbed_wait_us} µs for a CPU per slice (schedstat) or steal is > ${o.disturbed_steal * 100} % during its window; repeated up to ${o.disturbed_retries} time(s)`,
        ]
      : [
          `  cpu.shares ${o.cpu_shares} (the benchmark competes with other processes as their equal)`,
          `  before each probe: wait up to ${o.quiet_wait_s} s for other tenants to use ≤ ${o.quiet_cores} core(s)`,
          `  a probe is disturbed when other processes use > ${o.disturbed_cores} cores or steal is > ${o.disturbed_steal * 100} % during its window; repeated up to ${o.disturbed_retries} time(s)`,
        ]),
    `  bisection from ${o.min_rate} ops/s to ${o.max_rate || 'the closed-loop saturation rate + 10 %'}, tolerance ${o.tolerance * 100} %, at most ${o.max_probes} probes`,
    o.hosts
      ? '  cold searches: the hosts path bisects every setting\'s whole bracket (no warm start there)'
      : o.warm_start
      ? '  warm-started: each search first probes the answer of the same setting\'s previous repetition, else of the previous memory size (same system, workload, vCPUs, mode, repetition), then its neighbour one tolerance away; the top and the minimum only when the bracket must widen to them (--cold-search: off)'
      : '  cold searches (--cold-search): every setting bisects its whole bracket',
    ...(o.early_stop ? ['  early stop (--early-stop): a search probe ends once its window\'s p99 is over the SLO for certain, reported missed with the counts that decided it'] : []),
    ...(o.mitigation === 'none' ? [] : [`  GC mitigation: ${o.mitigation} (the Go and Java servers' --mitigation)`]),
    o.hosts
      ? `  1 paper vCPU = ${o.cores_per_vcpu} core(s) of a host`
      : `  cpusets: load generator ${o.loadgen_cpus}, nodes ${o.node_cpus}; 1 paper vCPU = ${o.cores_per_vcpu} core(s)`,
    `  durability ${durabilityModes(o).map((m) => (m.fsync ? `${m.durability} (fsync ${m.fsync})` : m.durability)).join(', ')}${o.systems.some((x) => x === 'etcd') ? '; etcd with its own WAL (fsync on commit), once per setting' : ''}`,
    `  records ${o.records} (${((o.records * RECORD_BYTES) / 2 ** 20).toFixed(1)} MiB of raw data at ${RECORD_BYTES} B/record)`,
    o.memory_baseline === 'auto' && !o.mem_gib
      ? `  memory per node = ratio × raw data + the system's fixed footprint (measured first${o.hosts ? ' on this controller, with the binaries the deploy ships' : ''}: 64 clients connected, 1,000 records)`
      : '  memory per node as given (no footprint added)',
  ];
  for (const s of settings) {
    const extra = s.ratio !== null && o.memory_baseline === 'auto' ? ' + footprint' : '';
    const mem = `${(s.memory_bytes / 2 ** 20).toFixed(0)} MiB/node${extra}${s.ratio !== null ? ` (ratio ${s.ratio})` : ''}`;
    const cpu = s.cpu_quota_cores === null ? 'no CPU quota' : `CPU quota ${s.cpu_quota_cores} core/node`;
    const dur = s.system === 'etcd' ? 'its own WAL' : s.durability === 'log' ? `durability log, fsync ${s.fsync}` : 'durability none';
    lines.push(`  - ${s.id}: workload ${s.workload.toUpperCase()}, ${mem}, ${s.vcpus} vCPU-equivalent (${cpu}), ${dur}`);
  }
  return lines.join('\n');
}
