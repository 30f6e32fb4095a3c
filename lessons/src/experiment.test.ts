// Experiments: the sim checkpoint and placeholder read the step's last simulator run (and say
// so when there is none); the validator keeps experiments, their actions and checks consistent.
import { describe, expect, it } from 'vitest';
import { evaluate, type World } from './checkpoints.ts';
import { paper, readLessonFolders } from './node/load-dir.ts';
import { chooseSettings, readRun, type Experiment, type SimReading } from './experiment.ts';
import { experimentSpecs } from './experiment-spec.ts';
import { fillToString } from './template.ts';
import { validateLesson } from './validate.ts';

const EXP: Experiment = { engine: 'go', ratio: 8, vcpus: 8, target_ops_per_s: 20000, seed: 1, duration_s: 3, vary: { ratio: [8, 1.25] } };
const READING: SimReading = readRun(chooseSettings(EXP, { ratio: 1.25 }), {
  model_card_version: '1.1.0',
  achieved_ops_per_s: 20001.2,
  latency: { all: { mean_us: 147_900, p99_us: 396_290, p999_us: 412_000 } },
  latency_uncorrected: { all: { p99_us: 44_830 } },
  leader_at_end: 0,
  nodes: [{ node: 0, mean_cpu_utilization: 0.779, mean_gc_cpu_share: 0.251, gc_events: [{}, {}] }],
});
const world = (sim: SimReading | null): World => ({ views: [], effects: () => '', paper: paper(), sim });

describe('experiments', () => {
  it('a sim checkpoint says when nothing has run, and quotes the run when one has', () => {
    const c = { check: 'sim', metric: 'p99_ms', compare: '>', to: 'sec5-1-all-slo-p99-latency' } as const;
    expect(evaluate(c, world(null))).toMatchObject({ ok: false, saw: 'no simulator run yet' });
    const r = evaluate(c, world(READING));
    expect(r.ok).toBe(true);
    expect(r.saw).toBe('simulated (model card 1.1.0; Go, memory:data 1.25, 8 vCPUs, 20000 ops/s offered): p99_ms = 396.3 ms');
  });

  it('compares with another metric of the same run, and shares in percent', () => {
    expect(evaluate({ check: 'sim', metric: 'p99_ms', compare: '>', to: 'sim:service_p99_ms' }, world(READING)).ok).toBe(true);
    expect(evaluate({ check: 'sim', metric: 'service_p99_ms', compare: '>', to: 'sim:p99_ms' }, world(READING)).ok).toBe(false);
    expect(evaluate({ check: 'sim', metric: 'leader_gc_cpu_share', compare: '>', to: 25 }, world(READING)).ok).toBe(true);
    expect(evaluate({ check: 'sim', metric: 'leader_gc_cpu_share', compare: '>', to: 26 }, world(READING)).ok).toBe(false);
  });

  it('a checkpoint bound to settings fails on a run with others', () => {
    expect(evaluate({ check: 'sim', metric: 'p99_ms', compare: '>', to: 20, engine: 'rust' }, world(READING)).ok).toBe(false);
    expect(evaluate({ check: 'sim', metric: 'p99_ms', compare: '>', to: 20, engine: 'go', ratio: 1.25 }, world(READING)).ok).toBe(true);
  });

  it('placeholders read the run, labelled simulated, or say it has not run', () => {
    expect(fillToString('{{sim:p99_ms}}', { world: world(null) })).toBe('(not run yet)');
    expect(fillToString('p99 {{sim:p99_ms}}, GC {{sim:leader_gc_cpu_share}}', { world: world(READING) })).toBe('p99 396.3 ms, GC 25.1 %');
  });

  it('only the values an experiment offers can be chosen', () => {
    expect(chooseSettings(EXP, {})).toEqual({ engine: 'go', ratio: 8, vcpus: 8, target_ops_per_s: 20000, mitigation: 'none' });
    expect(() => chooseSettings(EXP, { mitigation: 'blade' })).toThrow(/mitigation blade is not one of the values this experiment offers \(none\)/);
    expect(() => chooseSettings(EXP, { ratio: 3 })).toThrow(/ratio 3 is not one of the values this experiment offers \(8, 1.25\)/);
    expect(() => chooseSettings(EXP, { engine: 'java' })).toThrow(/engine java/);
  });

  it('the validator: a sim check needs an experiment; show me offers only what the experiment does', () => {
    const lesson = readLessonFolders().find((f) => f.folder.startsWith('12-'))!;
    const parsed = JSON.parse(lesson.scenario!);
    const step = parsed.steps.find((s: { experiment?: unknown }) => s.experiment);
    delete step.experiment;
    const noExperiment = JSON.stringify(parsed, null, 2);
    const m1 = validateLesson({ ...lesson, scenario: noExperiment }, paper()).errors.map((e) => e.message);
    expect(m1).toContain('a "sim" checkpoint reads the step\'s experiment, but the step has none');
    expect(m1).toContain('a "simulate" action needs the step to have an "experiment"');
    const offPiste = lesson.scenario!.replace(/("do": "simulate",\s*"ratio": )2\b/, '$13');
    expect(offPiste).not.toBe(lesson.scenario);
    const m2 = validateLesson({ ...lesson, scenario: offPiste }, paper()).errors.map((e) => e.message);
    expect(m2.some((m) => m.includes('ratio 3 is not one of the values this experiment offers'))).toBe(true);
  });

  it('a run with a mitigation is paired with a GC-off run; its reading compares the p99.9s', () => {
    const exp: Experiment = { ...EXP, engine: 'java', ratio: 1.25, mitigation: 'none', vary: { mitigation: ['none', 'blade'] } };
    const none = experimentSpecs(exp, chooseSettings(exp, {}));
    expect(none.run.mitigation).toBeUndefined();
    expect(none.gc_off).toBeNull();
    const blade = experimentSpecs(exp, chooseSettings(exp, { mitigation: 'blade' }));
    expect(blade.run.mitigation).toEqual({ mode: 'blade' });
    expect(blade.gc_off!.mitigation).toEqual({ mode: 'none', collector: 'off' });
    // Apart from the mitigation, the pair is one run.
    expect({ ...blade.gc_off, mitigation: null }).toEqual({ ...blade.run, mitigation: null });
    const result = (p999_us: number) => ({
      model_card_version: '1.6.0',
      achieved_ops_per_s: 8000,
      latency: { all: { mean_us: 1_000, p99_us: 2_400, p999_us } },
      leader_at_end: 1,
      nodes: [{ node: 1, mean_cpu_utilization: 0.3, mean_gc_cpu_share: 0.05, gc_events: [] }],
      mitigation: { handoffs: 5, busy_replies: 0, busy_retries_served_elsewhere: 0, busy_retries_redirected_back: 0 },
    });
    const reading = readRun(chooseSettings(exp, { mitigation: 'blade' }), result(2_870), result(2_790));
    expect(reading).toMatchObject({ p999_ms: 2.87, gc_off_p999_ms: 2.79, handoffs: 5 });
    const within2 = { check: 'sim', metric: 'p999_vs_gc_off', compare: '<=', to: 2 } as const;
    expect(evaluate(within2, world(reading))).toMatchObject({ ok: true });
    expect(evaluate(within2, world(reading)).saw).toContain('Java, memory:data 1.25, 8 vCPUs, 20000 ops/s offered, BLADE');
    expect(evaluate(within2, world(readRun(chooseSettings(exp, { mitigation: 'blade' }), result(15_480), result(2_790)))).ok).toBe(false);
    // Without a mitigation there is no GC-off pair: the comparison never holds.
    const plain = readRun(chooseSettings(exp, {}), result(2_870));
    expect(plain.p999_vs_gc_off).toBeNull();
    expect(evaluate(within2, world(plain)).ok).toBe(false);
    expect(fillToString('{{sim:p999_vs_gc_off}}', { world: world(plain) })).toBe('none (no mitigation in this run)');
  });
});
