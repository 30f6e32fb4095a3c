// The Lab's comparison with the paper: beside every simulated point the paper states, its value
// and the error — the max throughput and, where the paper states it, the leader's utilisation.
import { describe, expect, it } from 'vitest';
import type { SweepResult } from '@replicant/sim/api';
import { defaultState } from '../state/app-state.ts';
import { PAPER } from '../paper/results.ts';
import { fidelityLine, sweepFidelity } from './lab-results.ts';

const point = (engine: string, vcpus: number, max: number | null, leader: number | null) => ({
  engine,
  memory_gib: 32,
  vcpus,
  result: { simulated: true, model_card_version: '1.6.0', max_ops_per_s_at_slo: max, p99_ms_at_max: 18, leader_cpu_utilization_at_max: leader, probes: [{ target_ops_per_s: 100, p99_ms: 2, achieved_ops_per_s: 100, met: true }] },
});

describe('the Lab beside the paper', () => {
  it('gives the paper’s leader utilisation and the error in pp beside a vCPU sweep’s points, and marks one outside ±7 pp', () => {
    const s = defaultState().lab;
    s.sweep = 'vcpus';
    s.vcpulist = [8, 4, 2];
    s.engines = ['java', 'rust'];
    const sweep = { simulated: true, model_card_version: '1.6.0', points: [point('java', 8, 18_000, 0.5), point('java', 4, 9_000, 0.6), point('java', 2, 4_000, 0.7), point('rust', 8, 69_000, 0.57), point('rust', 4, 40_000, 0.99), point('rust', 2, 20_000, 0.99)] } as unknown as SweepResult;
    const f = sweepFidelity(sweep, s, PAPER.rows);
    const at = (e: string, x: number) => f.find((p) => p.engine === e && p.x === x);
    // Java at 8 vCPUs: 18 Kops/s and 48 % (Fig 7); +2 pp is within.
    expect(at('java', 8)!.utilization!.paper.value).toBe(48);
    expect(at('java', 8)!.utilization!.error_pp).toBeCloseTo(2);
    expect(at('java', 8)!.utilization!.outside).toBe(false);
    // Java at 4 vCPUs: 7 Kops/s and 38 %: +22 pp is marked, with the model's reason.
    const j4 = at('java', 4)!;
    expect(j4.utilization!.outside).toBe(true);
    expect(j4.utilization!.reason).toMatch(/Java/);
    expect(fidelityLine(j4)).toMatch(/leader CPU 60 % \(simulated\), paper 38 % \(Fig 7\(b\)\): \+22 pp — outside ±7 pp/);
    // Rust at 4 vCPUs: the paper states the utilisation (Fig 10(b), 85 %) but no throughput.
    const r4 = at('rust', 4)!;
    expect(r4.paper).toBeNull();
    expect(r4.utilization!.paper.value).toBe(85);
    expect(r4.utilization!.error_pp).toBeCloseTo(14);
    expect(fidelityLine(r4)).toMatch(/^the paper states no throughput here; leader CPU 99 %/);
  });
});
