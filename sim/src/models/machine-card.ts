// A model card for the machine the native benchmark runs on ("this machine"): the paper card's
// runtime constants, with everything that belongs to the hardware and the harness's set-up
// replaced by what was measured here — CPU per operation (bench calibrate), the loopback
// network (bench loopback), the cores the harness's cgroups give the nodes, each engine's fixed
// footprint, and the servers' TCP transport. Pure: the simulated CPU per operation that the
// per-message costs are scaled against is passed in (sim/src/cli/machine-card-cli.ts runs it).
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { CardParameter, EngineName, ModelCard } from '../api.ts';
import { param } from './card.ts';
import { MIN_VCPUS } from './cpu.ts';
import { provenance } from './measured-card.ts';

export class MachineCardError extends Error {}

export type WorkloadKey = 'a' | 'b';
export const WORKLOAD_KEYS: readonly WorkloadKey[] = ['a', 'b'];

/** The harness's placement (bench/src/plan.ts defaults, docs/benchmarks.md "Scaling"). */
export interface HarnessLayout {
  /** Cores of the cpuset the three nodes share (--node-cpus, default CPU 1). */
  node_cores: number;
  /** Cores of the load generator's cpuset (YCSB on CPU 0). */
  loadgen_cores: number;
  /** A paper vCPU is this many cores of the quota (--cores-per-vcpu, default 1/8). */
  cores_per_vcpu: number;
  /** Where these come from, for the notes. */
  source: string;
}

export const HARNESS_DEFAULT_LAYOUT: HarnessLayout = {
  node_cores: 1,
  loadgen_cores: 1,
  cores_per_vcpu: 1 / 8,
  source: 'the native harness\'s defaults (bench/src/plan.ts: --node-cpus 1, YCSB on cpuset 0, --cores-per-vcpu 1/8; docs/benchmarks.md, "Scaling to this machine")',
};

/** Each engine's fixed footprint as the harness measured it before its settings. */
export interface Footprint {
  mib: Record<EngineName, number>;
  source: string;
}

export interface MachineCardInputs {
  paper: ModelCard;
  measured: ModelCard;
  /** The same calibration at a higher rate (bench calibrate --rate R): CPU per operation then
   * counts only what each further operation costs (marginalUsPerOp); without it, the lower
   * rate's whole CPU per operation. */
  measured_high?: ModelCard;
  /** A calibration at a rate near the closed loop's (bench calibrate --rate 12000): the closed
   * loop then pays the marginal cost between it and the next lower rate (measured_high when
   * there is one, else measured: a quiet calibration at two rates), and its leader share leaves
   * room for every node's fixed CPU per second (closedLoopPoint). */
  measured_top?: ModelCard;
  /** Where the open loop's SLO answer lies on this machine, when native probes have said so:
   * 'batched' when the answer lies where the nodes' core is full and the leader pays its batched
   * cost there (the evidence, for the note), so an open-loop search pays the closed loop's costs
   * and core share (machine.<engine>.open_loop_batched), for the engines the probes showed it for.
   * Without it, the lowest rate's whole cost. */
  open_loop_batched?: { engines: EngineName[]; evidence: string };
  loopback: ModelCard;
  /** Leader CPU µs per operation the paper card's simulator spends at the calibration's point,
   * per engine and workload, for the card being scaled (the first entry is the paper card's). */
  simulated_leader_us_per_op: Record<EngineName, Record<WorkloadKey, number>>;
  /** How that point was simulated, for the notes. */
  simulated_point: string;
  footprint: Footprint;
  layout: HarnessLayout;
  version: string;
  machine: string;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function value(card: ModelCard, key: string): number {
  const p = card.parameters[key];
  if (!p || typeof p.value !== 'number' || !Number.isFinite(p.value) || p.value < 0) throw new MachineCardError(`card ${card.version} has no usable parameter "${key}"`);
  return p.value;
}

/** The rate a measured CPU parameter was taken at: the median of the achieved rates its note
 * gives ("… at 998.7 ops/s open loop …", one per repetition). */
export function measuredRate(card: ModelCard, key: string): number {
  const note = card.parameters[key]?.note ?? '';
  const rates = [...note.matchAll(/at ([\d.]+) ops\/s open loop/g)].map((m) => Number(m[1])).filter((x) => x > 0).sort((a, b) => a - b);
  if (!rates.length) throw new MachineCardError(`card ${card.version}: the note of "${key}" gives no rate ("at N ops/s open loop")`);
  const mid = rates.length >> 1;
  return rates.length % 2 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
}

/** CPU µs per operation of one role and workload, as the card uses it. With two rates r1 < r2
 * and CPU per operation c1, c2 measured at them, a node's CPU per second is taken as fixed +
 * marginal × rate (what it spends at any rate — timers, heartbeats, the status line, the
 * runtime's own threads — plus what each operation adds), so marginal = (c2 r2 − c1 r1) /
 * (r2 − r1): the cost that decides how far the rate can go. */
export function cpuPerOp(x: Pick<MachineCardInputs, 'measured' | 'measured_high'>, e: EngineName, role: 'leader' | 'follower', w: WorkloadKey): { us: number; how: string } {
  const key = `${e}.cpu_us_per_op.${role}.${w}`;
  const c1 = value(x.measured, key);
  if (!x.measured_high) return { us: c1, how: `${c1} us at ${provenance(x.measured)}` };
  const c2 = value(x.measured_high, key);
  const r1 = measuredRate(x.measured, key);
  const r2 = measuredRate(x.measured_high, key);
  if (!(r2 > r1 * 1.5)) throw new MachineCardError(`${key}: the second calibration's rate (${r2} ops/s) must be well above the first's (${r1} ops/s)`);
  const marginal = (c2 * r2 - c1 * r1) / (r2 - r1);
  // Noise between the two calibrations (other tenants, a slow repetition at the lower rate) can
  // leave less CPU per second at the higher rate: then the higher rate's whole CPU per
  // operation, an upper bound of the marginal one, stands for it, and the note says so.
  if (!(marginal > 0)) return { us: c2, how: `${c2} us/op at ${r2} ops/s (${provenance(x.measured_high)}), an upper bound: ${c1} us/op at ${r1} ops/s (${provenance(x.measured)}) leaves no positive marginal cost, (${c2} x ${r2} - ${c1} x ${r1}) / (${r2} - ${r1}) = ${marginal.toFixed(1)} us` };
  return { us: marginal, how: `(${c2} x ${r2} - ${c1} x ${r1}) / (${r2} - ${r1}) = ${marginal.toFixed(1)} us (${c1} us/op at ${r1} ops/s, ${provenance(x.measured)}; ${c2} us/op at ${r2} ops/s, ${provenance(x.measured_high)})` };
}

/** The per-event CPU costs of an engine that the machine card scales. */
export const SCALED_CPU_COSTS = ['in_us', 'out_us', 'step_us', 'per_kib_us', 'timer_us'] as const;

/** Which CPU per operation a load pays on this machine's servers. An open-loop search probe
 * below the servers' core limit finds their queues empty, so each operation pays its own
 * messages, syscalls and wake-ups: the whole CPU per operation at the lower calibration rate
 * ('open'). A closed loop of 64 outstanding requests keeps the queues full, and the servers
 * batch what is queued into each read, write and step: what each further operation adds, the
 * marginal cost between the two calibration rates ('closed'). Without a second calibration both
 * are the lower rate's whole cost. The native probes' leader CPU per operation shows the split
 * (docs/fidelity-native.md, "Why the SLO comes before saturation"). */
export type LoadRegime = 'open' | 'closed';

type Calibrations = Pick<MachineCardInputs, 'measured' | 'measured_high' | 'measured_top'>;

/** The two calibrations a closed loop's marginal cost is taken between: the two highest rates.
 * A top calibration with no middle one pairs with the lowest (the quiet calibration of 28 Nov
 * ran at 1,000 and 12,000 ops/s only). */
function closedPair(x: Calibrations): Pick<MachineCardInputs, 'measured' | 'measured_high'> {
  if (x.measured_top) return { measured: x.measured_high ?? x.measured, measured_high: x.measured_top };
  return x;
}

function regimeCpuPerOp(x: Calibrations, e: EngineName, role: 'leader' | 'follower', w: WorkloadKey, regime: LoadRegime) {
  return cpuPerOp(regime === 'open' ? { measured: x.measured } : closedPair(x), e, role, w);
}

/** Where a closed loop runs on this machine: the rate at which the three nodes' CPU fills their
 * cores. Each node spends fixed + marginal x rate per second (the line through the two highest
 * calibrations, fixed = c_low x r_low - marginal x r_low: timers, heartbeats, the status line,
 * the runtime's own threads), so the rate is (cores - leader fixed - 2 follower fixed) / (leader
 * marginal + 2 follower marginal), and the leader's operations get marginal x rate of the cores;
 * the rest is the followers' and every node's fixed CPU. The native saturation probes show the
 * nodes filling their core (0.94-0.98 cores in every clean probe of the scored runs). */
export function closedLoopPoint(x: Calibrations, e: EngineName, w: WorkloadKey, nodeCores: number): { ops_per_s: number; leader_ops_share: number; fixed_cores: number; how: string } {
  const pair = closedPair(x);
  if (!pair.measured_high) throw new MachineCardError('the closed loop\'s operating point needs two calibration rates');
  const role = (r: 'leader' | 'follower') => {
    const key = `${e}.cpu_us_per_op.${r}.${w}`;
    const m = cpuPerOp(pair, e, r, w).us;
    const rLow = measuredRate(pair.measured, key);
    // noise can put the line's intercept below 0; a node spends no less than nothing per second
    const fixed = Math.max(0, (value(pair.measured, key) - m) * rLow) / 1e6;
    return { m, fixed };
  };
  const l = role('leader');
  const f = role('follower');
  const fixed = l.fixed + 2 * f.fixed;
  const perOp = (l.m + 2 * f.m) / 1e6;
  if (!(nodeCores > fixed)) throw new MachineCardError(`${e} ${w}: the nodes' fixed CPU (${fixed.toFixed(3)} cores) leaves nothing of ${nodeCores} cores for operations`);
  const rate = (nodeCores - fixed) / perOp;
  return {
    ops_per_s: rate,
    leader_ops_share: (l.m / 1e6) * rate / nodeCores,
    fixed_cores: fixed,
    how: `fixed CPU leader ${l.fixed.toFixed(4)} + followers 2 x ${f.fixed.toFixed(4)} = ${fixed.toFixed(4)} cores, marginal ${l.m.toFixed(1)} + 2 x ${f.m.toFixed(1)} us/op: the nodes' ${nodeCores} core(s) fill at ${Math.round(rate)} ops/s, where the leader's operations take ${l.m.toFixed(1)} us x ${Math.round(rate)} ops/s`,
  };
}

/** One factor per engine: measured leader CPU per operation over what the card simulates at the
 * same point, summed over workloads A and B (ratio of sums: the workloads weigh by their cost). */
export function cpuScale(x: Calibrations, simulated: Record<WorkloadKey, number>, e: EngineName, regime: LoadRegime = 'closed'): number {
  let m = 0;
  let s = 0;
  for (const w of WORKLOAD_KEYS) {
    m += regimeCpuPerOp(x, e, 'leader', w, regime).us;
    s += simulated[w];
  }
  if (!(s > 0)) throw new MachineCardError(`${e}: the simulated leader CPU per operation is not positive`);
  return m / s;
}

/** The share of the nodes' shared cores the leader gets at saturation: with every node
 * runnable, CFS with equal weights gives each what it asks for per operation, so the leader's
 * share is its CPU per operation over the cluster's (leader + two followers), as measured. */
export function leaderCoreShare(x: Calibrations, e: EngineName, w: WorkloadKey, regime: LoadRegime = 'closed'): number {
  const l = regimeCpuPerOp(x, e, 'leader', w, regime).us;
  const f = regimeCpuPerOp(x, e, 'follower', w, regime).us;
  if (!(l + 2 * f > 0)) throw new MachineCardError(`${e} ${w}: no measured CPU per operation`);
  return l / (l + 2 * f);
}

export function deriveMachineCard(x: MachineCardInputs): ModelCard {
  const card: ModelCard = structuredClone(x.paper);
  const set = (key: string, v: number, unit: string, source: CardParameter['source'], note: string) => {
    card.parameters[key] = { value: v, unit, source, note };
  };
  const from = [x.measured, x.measured_high, x.measured_top].filter((c): c is ModelCard => !!c).map(provenance).join(' and ');
  const lb = (k: string) => value(x.loopback, `loopback.${k}`);
  const lbFrom = `loopback card ${x.loopback.version}`;

  // Network: loopback TCP between the nodes and to YCSB.
  const median = lb('rtt_median_us');
  const mean = lb('rtt_mean_us');
  set('network.one_way_latency_us', round3(median / 2), 'us', 'measured', `Half the median loopback round trip (${median} us; ${lbFrom}). With the exponential extra delay below, the mean one-way delay is half the measured mean round trip.`);
  set('network.jitter_mean_us', round3(Math.max(0, mean - median) / 2), 'us', 'measured', `Half the measured mean round trip (${mean} us) minus half its median (${median} us) (${lbFrom}): the scheduling tail of a shared 2-core machine (p99 ${lb('rtt_p99_us')} us), as an exponential.`);
  set('network.bandwidth_gbps', round3(lb('bandwidth_gbps')), 'Gbit/s', 'measured', `One loopback TCP flow (${lbFrom}).`);

  for (const e of ENGINE_NAMES) {
    // Transport: the native servers all speak the Lab's TCP protocol (docs/protocol.md), the
    // paper's Go and Rust set-up, whose hand-off the paper card sets to 0.
    set(`cpu.${e}.handoff_mean_us`, 0, 'us', 'derived', `The native ${e} server talks the Lab's TCP protocol to its peers and clients (docs/protocol.md, "Native servers"), not gRPC: no thread hand-off beyond the CPU the card charges per message, as the paper card has for its TCP builds (Go and Rust).`);

    // CPU per event: the paper card's split of an operation into messages and steps, scaled so
    // the simulated leader spends what the native leader spent per operation here.
    const sim = x.simulated_leader_us_per_op[e];
    const k = cpuScale(x, sim, e, 'open');
    const meas = (role: 'leader' | 'follower', w: WorkloadKey, regime: LoadRegime) => regimeCpuPerOp(x, e, role, w, regime).how;
    for (const name of SCALED_CPU_COSTS) {
      const key = `cpu.${e}.${name}`;
      const paperValue = param(x.paper, key);
      set(key, round3(paperValue * k), x.paper.parameters[key]!.unit, 'derived', `Card ${x.paper.version}'s ${paperValue} ${x.paper.parameters[key]!.unit} x ${k.toFixed(4)}: the native ${e} leader's measured CPU per operation with its queues empty (A: ${meas('leader', 'a', 'open')}; B: ${meas('leader', 'b', 'open')}) over what card ${x.paper.version} simulates at the same point (${x.simulated_point}: A ${sim.a.toFixed(1)} us, B ${sim.b.toFixed(1)} us), the ratio of the sums. The card's split of an operation into messages and Log-mutex steps is kept. What an open-loop load pays; a closed loop pays machine.${e}.closed_loop_cpu_factor of it.`);
    }
    const kClosed = cpuScale(x, sim, e, 'closed');
    if (x.measured_top) {
      // One factor per workload: between 4,000 and 12,000 ops/s an update-heavy A batches far less
      // than B (C++ leader 41.1 against 21.0 us/op), a spread the paper card's split of an
      // operation does not carry; the leader's closed-loop share is computed per workload too.
      for (const w of WORKLOAD_KEYS) {
        const kw = regimeCpuPerOp(x, e, 'leader', w, 'closed').us / sim[w];
        set(`machine.${e}.closed_loop_cpu_factor.${w}`, round3(kw / k), 'fraction', 'derived', `Workload ${w.toUpperCase()} under a closed loop: the leader's marginal CPU per operation between the two highest calibration rates (${meas('leader', w, 'closed')}) over what card ${x.paper.version} simulates at the calibration point (${sim[w].toFixed(1)} us), ${kw.toFixed(4)}, over the open-loop scale ${k.toFixed(4)}. Applied to cpu.${e}.{${SCALED_CPU_COSTS.join(',')}} for closed-loop runs of workload ${w.toUpperCase()}, in place of machine.${e}.closed_loop_cpu_factor.`);
      }
    }
    set(`machine.${e}.closed_loop_cpu_factor`, round3(kClosed / k), 'fraction', 'derived', x.measured_high
      ? `Under a closed loop (the harness's saturation probe: 64 outstanding requests) the servers' queues stay full and each read, write and step carries a batch, so an operation costs what each further one adds between the ${x.measured_top ? 'two highest calibration rates (the closed loop runs at 12-38 K ops/s here, well above the lowest)' : 'two calibration rates'}, not its whole cost at the lower rate: ${kClosed.toFixed(4)} / ${k.toFixed(4)}, the same ratio of sums over A (${meas('leader', 'a', 'closed')}) and B (${meas('leader', 'b', 'closed')}). Applied to cpu.${e}.{${SCALED_CPU_COSTS.join(',')}} for closed-loop runs.`
      : 'One calibration rate only: no batched cost measured, so a closed loop pays the open-loop cost.');
    for (const w of WORKLOAD_KEYS) {
      for (const regime of ['open', 'closed'] as const) {
        const key = regime === 'open' ? `machine.${e}.leader_core_share.${w}` : `machine.${e}.closed_loop_leader_core_share.${w}`;
        if (regime === 'closed' && x.measured_top) {
          const point = closedLoopPoint(x, e, w, x.layout.node_cores);
          set(key, round3(point.leader_ops_share), 'fraction', 'derived', `The share of the nodes' shared cores the leader's operations get under a closed loop, workload ${w.toUpperCase()}: at the rate where the three nodes' CPU fills their cores, the leader's marginal CPU times that rate, over the cores; every node's fixed CPU per second and the followers' operations take the rest (${point.how}; leader: ${meas('leader', w, regime)}; follower: ${meas('follower', w, regime)}).`);
          continue;
        }
        const share = leaderCoreShare(x, e, w, regime);
        set(key, round3(share), 'fraction', 'derived', `The leader's share of the nodes' shared cores when they are full, workload ${w.toUpperCase()}, ${regime === 'open' ? 'open loop (queues empty until the core fills)' : 'closed loop (batched)'}: leader / (leader + 2 followers) CPU per operation as measured (leader: ${meas('leader', w, regime)}; follower: ${meas('follower', w, regime)}), the split CFS gives three groups of equal weight each asking for that much per operation.`);
      }
    }
    if (e !== 'java') {
      set(`memory.${e}.non_heap_bytes`, Math.round(x.footprint.mib[e] * 1024 * 1024), 'B', 'measured', `The fixed footprint the native harness measured for the ${e} server (${x.footprint.mib[e]} MiB; ${x.footprint.source}): the process's memory besides its data at the scaled size. A native setting whose row names its own measured footprint is simulated with that one (npm run fidelity -- --native).`);
    }
  }

  if (x.open_loop_batched) {
    if (!x.measured_top) throw new MachineCardError('an open loop that pays the batched cost needs the closed loop\'s calibrations (--measured-high and --measured-top)');
    for (const e of x.open_loop_batched.engines) {
      set(`machine.${e}.open_loop_batched`, 1, 'boolean', 'derived', `An open-loop load (the SLO search) of the ${e} servers pays the closed loop's batched CPU costs (machine.${e}.closed_loop_cpu_factor.<workload>) and leader core share (machine.${e}.closed_loop_leader_core_share.<workload>), not the lowest calibration rate's whole cost: ${x.open_loop_batched.evidence}`);
    }
  }
  // The harness starts each node's JVM as its own process and loads it apart: their young
  // collections fall at their own times, which a card before 1.8.1 does not give (its followers,
  // allocating alike, pause together and stop the leader's commits for the whole pause).
  set('g1.independent_phases', 1, 'boolean', 'derived', `Each node's JVM is a process of its own, started and loaded apart by the native harness, so its young collections fall at its own times (the G1 logs of a quiet native run: data/native/2026-11-27-reference/ratios-a/details/java-a-r8-8vcpu-rep2.jsonl, one follower's young pauses at 1.2, 2.7, 4.1, 5.6 s, the other's at 4.1, 7.7, 11.3 s, the leader's every 0.6 s): each simulated JVM starts with a seeded share of its first eden filled (sim/src/models/start-phases.ts), whatever card ${x.paper.version} says.`);
  set('machine.node_cores', x.layout.node_cores, 'cores', 'derived', `Cores of the cpuset the three nodes share (${x.layout.source}).`);
  set('machine.loadgen_cores', x.layout.loadgen_cores, 'cores', 'derived', `Cores of YCSB's own cpuset (${x.layout.source}). The simulator's clients cost no CPU; YCSB's 64 threads on their own core are taken not to limit the nodes.`);
  set('machine.cores_per_vcpu', x.layout.cores_per_vcpu, 'cores', 'derived', `A paper vCPU is this many cores of a node's CFS quota (${x.layout.source}); the quota caps a node's share of the shared cores.`);

  const replaced = 'network (loopback), per-event CPU (scaled to the measured CPU per operation: the whole cost with queues empty for open-loop loads, the batched marginal cost for closed loops), thread hand-off (0: TCP servers), fixed footprints (measured), and the nodes\' share of the shared cores (machine.*)';
  card.version = x.version;
  const closedHow = x.open_loop_batched
    ? ` Closed-loop loads, and open-loop loads of ${x.open_loop_batched.engines.join(', ')}, pay the marginal cost between the two highest calibration rates (what each further, batched operation adds near the rates a closed loop runs at), per workload: machine.<engine>.closed_loop_cpu_factor.<workload> times the lowest rate\'s whole cost, and the leader gets the share of the cores its operations have once every node\'s fixed CPU per second is paid (machine.<engine>.closed_loop_leader_core_share.*): those open loops too, because on a quiet machine their SLO answer lies where the nodes\' core is full (machine.<engine>.open_loop_batched); other engines\' open-loop loads pay the lowest rate\'s whole CPU per operation.`
    : x.measured_top
    ? ' An open-loop load pays the lowest rate\'s whole CPU per operation (queues empty: no batching until the core is full); a closed loop pays the marginal cost between the two highest calibration rates (what each further, batched operation adds near the rates a closed loop runs at), per workload: machine.<engine>.closed_loop_cpu_factor.<workload> times the open-loop cost, and its leader gets the share of the cores its operations have once every node\'s fixed CPU per second is paid (machine.<engine>.closed_loop_leader_core_share.*).'
    : x.measured_high ? ' An open-loop load pays the lower rate\'s whole CPU per operation (queues empty: no batching until the core is full); a closed loop pays the marginal cost between the two calibration rates (what each further, batched operation adds), machine.<engine>.closed_loop_cpu_factor times the open-loop cost.' : '';
  card.description = `Replicant Lab simulator model card for this machine (${x.machine}), derived by npm --workspace @replicant/sim run machine-card from card ${x.paper.version}, ${from} and ${lbFrom}.${closedHow} Replaced by what was measured here: ${replaced}. Taken from card ${x.paper.version} unchanged, as runtime properties or layouts of the same programs: the GC models' constants (go.*, g1.*), allocation per operation (itself measured on these engines, ${x.paper.version}'s source), bytes per record and per log instance, client retry and timeout, the storage model. Nothing is fitted to a native benchmark result. Card ${x.paper.version}'s description follows. ${x.paper.description}`;
  return card;
}

/** The vCPUs a simulated node gets for a native setting's paper-vCPU label on this machine:
 * its CFS quota (label x cores per vCPU), at most the leader's share of the shared cores under
 * that load regime. Every node gets the leader's figure: the leader is what saturates; the
 * followers' smaller share is not modelled (they get more CPU than they had, which shortens
 * latency a little). */
export function machineVcpus(card: ModelCard, e: EngineName, workload: 'A' | 'B', paperVcpus: number, regime: LoadRegime = 'open'): number {
  const quota = paperVcpus * param(card, 'machine.cores_per_vcpu');
  const w = workload.toLowerCase();
  const closedKey = `machine.${e}.closed_loop_leader_core_share.${w}`;
  // cards before 0.3.0 have one share for both regimes
  const key = regime === 'closed' && card.parameters[closedKey] ? closedKey : `machine.${e}.leader_core_share.${w}`;
  const share = param(card, key) * param(card, 'machine.node_cores');
  return Math.max(MIN_VCPUS, round3(Math.min(quota, share)));
}

/** The card a closed-loop run on this machine's servers uses: the per-event CPU costs times
 * machine.<e>.closed_loop_cpu_factor.<w> (0.4.0 on) or machine.<e>.closed_loop_cpu_factor
 * (batched operations). Cards before 0.3.0 have no factor and are returned as they are. */
export function closedLoopCard(card: ModelCard, e: EngineName, workload?: 'A' | 'B'): ModelCard {
  const perWorkloadKey = workload ? `machine.${e}.closed_loop_cpu_factor.${workload.toLowerCase()}` : undefined;
  const factorKey = perWorkloadKey && card.parameters[perWorkloadKey] ? perWorkloadKey : `machine.${e}.closed_loop_cpu_factor`;
  const factor = card.parameters[factorKey]?.value;
  if (typeof factor !== 'number' || factor === 1) return card;
  const parameters = { ...card.parameters };
  for (const name of SCALED_CPU_COSTS) {
    const key = `cpu.${e}.${name}`;
    const p = parameters[key]!;
    parameters[key] = { ...p, value: round3(Number(p.value) * factor), note: `${p.note} Closed loop: x ${factor} (${factorKey}).` };
  }
  return { ...card, parameters };
}

/** The regime whose costs a load pays with this card: an open loop pays the batched (closed-loop)
 * costs when the card says its SLO answers lie where the core is full (machine.<e>.open_loop_batched,
 * 0.5.0 on). */
export function pricedRegime(card: ModelCard, e: EngineName, regime: LoadRegime): LoadRegime {
  return regime === 'open' && card.parameters[`machine.${e}.open_loop_batched`]?.value === 1 ? 'closed' : regime;
}

/** Whether a card describes this machine (has the machine.* parameters). */
export function isMachineCard(card: ModelCard): boolean {
  return card.parameters['machine.node_cores'] !== undefined;
}
