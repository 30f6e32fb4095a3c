import { describe, expect, it } from 'vitest';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, ModelCard } from '../api.ts';
import { DEFAULT_CARD, validateCard } from './card.ts';
import { closedLoopCard, closedLoopPoint, cpuPerOp, cpuScale, deriveMachineCard, measuredRate, HARNESS_DEFAULT_LAYOUT, isMachineCard, leaderCoreShare, machineVcpus, MachineCardError, pricedRegime, type MachineCardInputs } from './machine-card.ts';
import { machineKnobs, nativeSettings } from '../fidelity/native.ts';

const m = (value: number, unit = 'us', note = 'test') => ({ value, unit, source: 'measured' as const, note });
function measured(scale = 1, rate = 1000): ModelCard {
  const parameters: ModelCard['parameters'] = {};
  const note = `Median of 2 repetitions. repetition 1: YCSB workload A at ${rate - 2} ops/s open loop | repetition 2: YCSB workload A at ${rate + 2} ops/s open loop`;
  ENGINE_NAMES.forEach((e, i) => {
    for (const w of ['a', 'b']) {
      parameters[`${e}.cpu_us_per_op.leader.${w}`] = m(scale * (100 + 10 * i + (w === 'b' ? 20 : 0)), 'us', note);
      parameters[`${e}.cpu_us_per_op.follower.${w}`] = m(scale * 25, 'us', note);
    }
  });
  return { version: `0.1.0-measured${rate === 1000 ? '' : `-${rate}ops`}.20261127`, description: 'bench calibrate, 2026-11-27, commit abcdef123456, 2-core Test CPU', parameters };
}
const loopback: ModelCard = {
  version: '0.1.0-loopback.20261127',
  description: 'test',
  parameters: { 'loopback.rtt_median_us': m(20), 'loopback.rtt_mean_us': m(60), 'loopback.rtt_p99_us': m(900), 'loopback.rtt_min_us': m(10), 'loopback.bandwidth_gbps': m(2, 'Gbit/s') },
};
const sim = Object.fromEntries(ENGINE_NAMES.map((e) => [e, { a: 200, b: 180 }])) as Record<EngineName, { a: number; b: number }>;
const inputs = (over: Partial<MachineCardInputs> = {}): MachineCardInputs => ({
  paper: DEFAULT_CARD,
  measured: measured(),
  loopback,
  simulated_leader_us_per_op: sim,
  simulated_point: 'test point',
  footprint: { mib: { cpp: 13, rust: 7, go: 26, java: 0 }, source: 'test results' },
  layout: HARNESS_DEFAULT_LAYOUT,
  version: '0.2.0-machine.20261127',
  machine: '2-core Test CPU',
  ...over,
});

describe("this machine's model card", () => {
  it('takes network, CPU per event, hand-off, footprints and core shares from the measurements; GC constants from the paper card', () => {
    const card = validateCard(deriveMachineCard(inputs()));
    expect(card.version).toBe('0.2.0-machine.20261127');
    expect(isMachineCard(card)).toBe(true);
    expect(isMachineCard(DEFAULT_CARD)).toBe(false);
    expect(card.parameters['network.one_way_latency_us']).toMatchObject({ value: 10, source: 'measured' });
    expect(card.parameters['network.jitter_mean_us']).toMatchObject({ value: 20, source: 'measured' });
    expect(card.parameters['network.bandwidth_gbps']!.value).toBe(2);
    // cpp: leader A 100, B 120 measured against 200 + 180 simulated
    const k = 220 / 380;
    expect(cpuScale({ measured: measured() }, sim.cpp, 'cpp')).toBeCloseTo(k, 12);
    for (const name of ['in_us', 'out_us', 'step_us', 'per_kib_us', 'timer_us']) {
      expect(card.parameters[`cpu.cpp.${name}`]!.value).toBeCloseTo(DEFAULT_CARD.parameters[`cpu.cpp.${name}`]!.value * k, 3);
      expect(card.parameters[`cpu.cpp.${name}`]!.note).toContain('0.5789');
    }
    for (const e of ENGINE_NAMES) expect(card.parameters[`cpu.${e}.handoff_mean_us`]!.value).toBe(0);
    expect(card.parameters['memory.rust.non_heap_bytes']).toMatchObject({ value: 7 * 1024 * 1024, source: 'measured' });
    expect(card.parameters['machine.cpp.leader_core_share.a']!.value).toBeCloseTo(100 / 150, 3);
    // the harness's three JVMs are separate processes: their young collections at their own phases
    expect(card.parameters['g1.independent_phases']).toMatchObject({ value: 1, source: 'derived' });
    expect(DEFAULT_CARD.parameters['g1.independent_phases']).toBeUndefined();
    // runtime properties are the paper card's, untouched
    for (const key of ['go.gogc', 'go.mark_ns_per_live_byte', 'g1.copy_ns_per_byte', 'g1.young_pause_fixed_ms', 'memory.go.bytes_per_record', 'alloc.go.leader_bytes_per_update_op']) {
      expect(card.parameters[key]).toEqual(DEFAULT_CARD.parameters[key]);
    }
    expect(card.description).toMatch(/Nothing is fitted to a native benchmark result/);
    // the paper card is not changed by the derivation
    expect(DEFAULT_CARD.parameters['network.one_way_latency_us']!.value).toBe(130);
  });

  it('gives a node its quota, at most the leader share of the shared core', () => {
    const card = deriveMachineCard(inputs());
    const share = leaderCoreShare({ measured: measured() }, 'cpp', 'b');
    expect(share).toBeCloseTo(120 / 170, 12);
    expect(machineVcpus(card, 'cpp', 'B', 8)).toBeCloseTo(share, 3); // quota 1 core: the share binds
    expect(machineVcpus(card, 'cpp', 'B', 4)).toBe(0.5); // quota 0.5 core binds
    expect(machineVcpus(card, 'cpp', 'B', 2)).toBe(0.25);
  });

  it('with a second, higher rate, counts what each further operation costs', () => {
    // cpp leader A: 100 us/op at 1,000 ops/s, 60 us/op at 4,000 ops/s -> (240,000 - 100,000) / 3,000 = 46.67 us
    const two = { measured: measured(), measured_high: measured(0.6, 4000) };
    expect(measuredRate(two.measured_high, 'cpp.cpu_us_per_op.leader.a')).toBe(4000);
    const c = cpuPerOp(two, 'cpp', 'leader', 'a');
    expect(c.us).toBeCloseTo((60 * 4000 - 100 * 1000) / 3000, 9);
    expect(c.how).toContain('0.1.0-measured-4000ops.20261127');
    // follower: 25 and 15 us/op -> (60,000 - 25,000) / 3,000 = 11.67 us
    expect(leaderCoreShare(two, 'cpp', 'a')).toBeCloseTo(46.6667 / (46.6667 + 2 * 11.6667), 4);
    const card = validateCard(deriveMachineCard(inputs(two)));
    expect(card.parameters['machine.cpp.closed_loop_cpu_factor']!.note).toContain('(60 x 4000 - 100 x 1000) / (4000 - 1000)');
    expect(card.description).toMatch(/marginal cost between the two calibration rates/);
    // a second rate that is not higher, or a cost that falls too fast, is refused
    expect(() => cpuPerOp({ measured: measured(), measured_high: measured(0.6, 1200) }, 'cpp', 'leader', 'a')).toThrow(/well above/);
    // 20 us/op at 4,000 ops/s is less CPU per second than 100 us/op at 1,000: noise; the higher
    // rate's whole cost stands for the marginal one
    const noisy = cpuPerOp({ measured: measured(), measured_high: measured(0.2, 4000) }, 'cpp', 'leader', 'a');
    expect(noisy.us).toBeCloseTo(20, 9);
    expect(noisy.how).toMatch(/an upper bound: .* leaves no positive marginal cost/);
    expect(() => measuredRate(DEFAULT_CARD, 'network.one_way_latency_us')).toThrow(/gives no rate/);
  });

  it('charges an open loop the whole CPU per operation and a closed loop the batched, marginal one', () => {
    // cpp leader: A 100 -> 46.67, B 120 -> (72 x 4000 - 120 x 1000) / 3000 = 56 us/op; followers 25 -> 11.67
    const two = { measured: measured(), measured_high: measured(0.6, 4000) };
    const card = validateCard(deriveMachineCard(inputs(two)));
    const kOpen = (100 + 120) / 380;
    const kClosed = ((60 * 4000 - 100 * 1000) / 3000 + (72 * 4000 - 120 * 1000) / 3000) / 380;
    expect(cpuScale(two, sim.cpp, 'cpp', 'open')).toBeCloseTo(kOpen, 12);
    expect(cpuScale(two, sim.cpp, 'cpp', 'closed')).toBeCloseTo(kClosed, 12);
    // the card's own costs are the open loop's: the same as a card from the lower rate alone
    const one = validateCard(deriveMachineCard(inputs()));
    for (const name of ['in_us', 'out_us', 'step_us', 'per_kib_us', 'timer_us']) expect(card.parameters[`cpu.cpp.${name}`]!.value).toBe(one.parameters[`cpu.cpp.${name}`]!.value);
    expect(card.parameters['machine.cpp.closed_loop_cpu_factor']!.value).toBeCloseTo(kClosed / kOpen, 3);
    expect(one.parameters['machine.cpp.closed_loop_cpu_factor']!.value).toBe(1);
    // the closed-loop card scales every per-event cost by the factor and leaves the rest
    const closed = closedLoopCard(card, 'cpp');
    expect(closed.parameters['cpu.cpp.in_us']!.value).toBeCloseTo(card.parameters['cpu.cpp.in_us']!.value * card.parameters['machine.cpp.closed_loop_cpu_factor']!.value, 2);
    expect(closed.parameters['cpu.go.in_us']).toEqual(card.parameters['cpu.go.in_us']);
    expect(closedLoopCard(one, 'cpp')).toBe(one);
    // and each regime has its own leader share of the core: B open 120 / 170, closed 56 / (56 + 23.33)
    expect(machineVcpus(card, 'cpp', 'B', 8, 'open')).toBeCloseTo(120 / 170, 3);
    expect(machineVcpus(card, 'cpp', 'B', 8, 'closed')).toBeCloseTo(56 / (56 + 2 * 35 / 3), 3);
    // a card without the closed-loop share (before 0.3.0) uses its one share for both
    const old = structuredClone(card);
    delete old.parameters['machine.cpp.closed_loop_leader_core_share.b'];
    expect(machineVcpus(old, 'cpp', 'B', 8, 'closed')).toBe(machineVcpus(old, 'cpp', 'B', 8, 'open'));
  });

  it('with a third calibration, runs a closed loop on the two highest rates and leaves the cores\' fixed CPU out of the leader\'s share', () => {
    // cpp leader B: 120 us/op at 1,000, 72 at 4,000, 36 at 12,000 ops/s -> marginal between the two
    // highest (36 x 12000 - 72 x 4000) / 8000 = 18 us, fixed (72 - 18) x 4000 = 0.216 cores;
    // followers 25, 15, 7.5 us/op -> marginal (90,000 - 60,000) / 8000 = 3.75 us, fixed 0.045 cores
    const three = { measured: measured(), measured_high: measured(0.6, 4000), measured_top: measured(0.3, 12000) };
    expect(cpuPerOp({ measured: three.measured_high, measured_high: three.measured_top }, 'cpp', 'leader', 'b').us).toBeCloseTo(18, 9);
    const point = closedLoopPoint(three, 'cpp', 'b', 1);
    const fixed = 0.216 + 2 * 0.045;
    expect(point.fixed_cores).toBeCloseTo(fixed, 9);
    const rate = (1 - fixed) / ((18 + 2 * 3.75) / 1e6);
    expect(point.ops_per_s).toBeCloseTo(rate, 6);
    expect(point.leader_ops_share).toBeCloseTo((18 / 1e6) * rate, 9);
    const card = validateCard(deriveMachineCard(inputs(three)));
    // the closed-loop share is that of the leader's operations, below the plain split 18 / 25.5
    expect(card.parameters['machine.cpp.closed_loop_leader_core_share.b']!.value).toBeCloseTo(point.leader_ops_share, 3);
    expect(point.leader_ops_share).toBeLessThan(18 / 25.5);
    expect(machineVcpus(card, 'cpp', 'B', 8, 'closed')).toBeCloseTo(point.leader_ops_share, 3);
    // the simulated closed loop then saturates where the nodes' core fills: share / marginal cost
    expect(point.leader_ops_share / (18 / 1e6)).toBeCloseTo(rate, 6);
    // the closed-loop factor is the upper pair's marginal cost over the open loop's whole one
    const kOpen = (100 + 120) / 380;
    const kClosed = ((30 * 12000 - 60 * 4000) / 8000 + 18) / 380;
    expect(card.parameters['machine.cpp.closed_loop_cpu_factor']!.value).toBeCloseTo(kClosed / kOpen, 3);
    expect(card.parameters['machine.cpp.closed_loop_cpu_factor']!.note).toContain('two highest calibration rates');
    // and one per workload, so a closed loop of B pays B's marginal cost (18 us against 180 simulated)
    expect(card.parameters['machine.cpp.closed_loop_cpu_factor.b']!.value).toBeCloseTo(18 / 180 / kOpen, 3);
    expect(card.parameters['machine.cpp.closed_loop_cpu_factor.a']!.value).toBeCloseTo(15 / 200 / kOpen, 3);
    const closedB = closedLoopCard(card, 'cpp', 'B');
    expect(closedB.parameters['cpu.cpp.in_us']!.value).toBeCloseTo(card.parameters['cpu.cpp.in_us']!.value * card.parameters['machine.cpp.closed_loop_cpu_factor.b']!.value, 2);
    expect(closedB.parameters['cpu.cpp.in_us']!.note).toContain('machine.cpp.closed_loop_cpu_factor.b');
    // a card with one factor per engine (0.3.0) keeps it for either workload
    const two = validateCard(deriveMachineCard(inputs({ measured: measured(), measured_high: measured(0.6, 4000) })));
    expect(closedLoopCard(two, 'cpp', 'B').parameters['cpu.cpp.in_us']).toEqual(closedLoopCard(two, 'cpp').parameters['cpu.cpp.in_us']);
    // the open loop's costs and shares stay those of the lowest rate
    const one = validateCard(deriveMachineCard(inputs()));
    expect(card.parameters['cpu.cpp.in_us']!.value).toBe(one.parameters['cpu.cpp.in_us']!.value);
    expect(card.parameters['machine.cpp.leader_core_share.b']!.value).toBe(one.parameters['machine.cpp.leader_core_share.b']!.value);
    expect(card.description).toMatch(/two highest calibration rates/);
    // a top calibration without a middle one pairs with the lowest: (36 x 12000 - 120 x 1000) / 11000
    // = 28.36 us for the leader
    const quiet = closedLoopPoint({ measured: measured(), measured_top: measured(0.3, 12000) }, 'cpp', 'b', 1);
    expect(quiet.how).toContain('marginal 28.4 + 2 x');
    expect(cpuPerOp({ measured: measured(), measured_high: measured(0.3, 12000) }, 'cpp', 'leader', 'b').us).toBeCloseTo((36 * 12000 - 120 * 1000) / 11000, 9);
    // fixed CPU that fills the cores is refused by name
    expect(() => closedLoopPoint(three, 'cpp', 'b', 0.2)).toThrow(/leaves nothing of 0.2 cores/);
  });

  it('prices the open loop of the engines the probes showed batched at the closed loop\'s costs and share, the others at the whole cost', () => {
    const three = { measured: measured(), measured_high: measured(0.6, 4000), measured_top: measured(0.3, 12000) };
    const plain = validateCard(deriveMachineCard(inputs(three)));
    const batched = validateCard(deriveMachineCard(inputs({ ...three, open_loop_batched: { engines: ['cpp', 'go'], evidence: 'probe figures, with their command' }, version: '0.5.0-machine.20261128' })));
    expect(batched.parameters['machine.cpp.open_loop_batched']).toMatchObject({ value: 1, note: expect.stringContaining('probe figures, with their command') });
    expect(batched.parameters['machine.java.open_loop_batched']).toBeUndefined();
    expect(batched.description).toMatch(/open-loop loads of cpp, go, pay/);
    expect([pricedRegime(batched, 'cpp', 'open'), pricedRegime(batched, 'java', 'open'), pricedRegime(plain, 'cpp', 'open'), pricedRegime(batched, 'java', 'closed')]).toEqual(['closed', 'open', 'open', 'closed']);
    // a native setting's open-loop search then runs on the closed loop's card and vCPUs
    const note = '100000 records; 428 MiB/node (= ratio x data + 29 MiB measured fixed footprint)';
    const row = (lang: string, metric: string, value: number) => ({ id: `${lang}-a-r8-8vcpu-${metric.replace(/_/g, '-')}`, language: lang, workload: 'A', memory_gib: null, memory_data_ratio: 8, vcpus: 8, metric, value, note });
    const setting = (lang: string) => nativeSettings([{ source: 'x', rows: [row(lang, 'slo_p99_latency', 50), row(lang, 'max_throughput_slo', 16.6)] }]).settings[0]!;
    const cpp = setting('C++');
    expect(machineKnobs(cpp, batched, 'open').vcpus).toBe(machineKnobs(cpp, batched, 'closed').vcpus);
    expect(machineKnobs(cpp, batched, 'open').model_card!.parameters['cpu.cpp.in_us']).toEqual(machineKnobs(cpp, batched, 'closed').model_card!.parameters['cpu.cpp.in_us']);
    expect(machineKnobs(cpp, plain, 'open').model_card!.parameters['cpu.cpp.in_us']!.value).toBe(plain.parameters['cpu.cpp.in_us']!.value);
    const java = setting('Java');
    expect(machineKnobs(java, batched, 'open').vcpus).toBe(machineKnobs(java, plain, 'open').vcpus);
    expect(machineKnobs(java, batched, 'open').vcpus).not.toBe(machineKnobs(java, batched, 'closed').vcpus);
    // without the closed loop's calibrations there is no batched cost to pay
    expect(() => deriveMachineCard(inputs({ open_loop_batched: { engines: ['cpp'], evidence: 'x' } }))).toThrow(/needs the closed loop's calibrations/);
  });

  it('says which measurement is missing', () => {
    const bad = measured();
    delete bad.parameters['go.cpu_us_per_op.follower.b'];
    expect(() => deriveMachineCard(inputs({ measured: bad }))).toThrow(MachineCardError);
    expect(() => deriveMachineCard(inputs({ measured: bad }))).toThrow(/go.cpu_us_per_op.follower.b/);
    expect(() => deriveMachineCard(inputs({ loopback: { ...loopback, parameters: {} } }))).toThrow(/loopback.rtt_median_us/);
    expect(() => machineVcpus(DEFAULT_CARD, 'go', 'A', 8)).toThrow(/machine.cores_per_vcpu/);
  });
});
