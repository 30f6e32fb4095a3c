// The lesson worker's host on the real engines (their Node wasm builds): what it answers must
// cross postMessage (structured clone), every request gets one answer, and an engine pair stays
// byte-identical through the protocol.
import { describe, expect, it } from 'vitest';
import { loadEngine } from '@replicant/sim/cli/engines';
import { loadLessons } from '@replicant/lessons/src/validate';
import { paper, readLessonFolders } from '@replicant/lessons/src/node/load-dir';
import { readEstimate } from '@replicant/lessons/src/cost';
import { LessonHost } from './lesson-host.ts';
import type { LessonRequest, LessonResponse } from './lesson-protocol.ts';

const PAPER = paper();
const { lessons } = loadLessons(readLessonFolders(), PAPER);
const byNumber = (n: number) => lessons.find((l) => l.scenario.number === n)!;

function hostWithLog() {
  const host = new LessonHost(loadEngine, () => import('@replicant/sim/step/session'));
  let id = 0;
  const ask = async (body: Record<string, unknown>): Promise<LessonResponse[]> => {
    const out: LessonResponse[] = [];
    await host.handle({ ...body, id: ++id } as LessonRequest, (r) => out.push(structuredClone(r)));
    return out;
  };
  return ask;
}

function final(rs: LessonResponse[]) {
  const last = rs[rs.length - 1]!;
  expect(rs.filter((r) => r.type !== 'loading')).toHaveLength(1);
  return last;
}

describe('LessonHost', () => {
  it('refuses a request before a lesson is open, with an error and no state', async () => {
    const ask = hostWithLog();
    expect(final(await ask({ type: 'goto', step: 0 }))).toEqual({ id: 1, type: 'error', message: 'no lesson is open', live: null });
  });

  it('opens lesson 1 on C++ and Go, reports loading, and keeps them identical through the student’s actions', async () => {
    const ask = hostWithLog();
    const opened = await ask({ type: 'open', lesson: byNumber(1), paper: PAPER, engines: ['cpp', 'go'], step: 0 });
    expect(opened.filter((r) => r.type === 'loading').map((r) => (r as { what: string }).what)).toEqual(['the simulator', 'the C++ engine (WebAssembly)', 'the Go engine (WebAssembly)']);
    const s = final(opened);
    if (s.type !== 'state') throw new Error(JSON.stringify(s));
    expect(s.live.step).toBe(0);
    expect(s.live.snapshot!.views).toHaveLength(3);
    expect(s.live.snapshot!.comparison!.identical).toBe(true);
    expect(s.live.checks.every((c) => c.ok)).toBe(true);

    const before = s.live.snapshot!.pending.filter((p) => p.kind === 'client').length;
    const acted = final(await ask({ type: 'act', action: { kind: 'client', node: 0, line: 'put k 1' } }));
    if (acted.type !== 'state') throw new Error(JSON.stringify(acted));
    expect(acted.live.snapshot!.pending.filter((p) => p.kind === 'client')).toHaveLength(before + 1);
    expect(acted.live.differences).toBeNull();

    // An action the engines refuse is an error that still carries the state, unchanged.
    const bad = final(await ask({ type: 'act', action: { kind: 'deliver', id: 987654 } }));
    expect(bad.type).toBe('error');
    if (bad.type === 'error') expect(bad.live!.snapshot!.step).toBe(acted.live.snapshot!.step);

    // The exercise (last step): not done at its checkpoint, done by "show me", undone by reset.
    const last = byNumber(1).scenario.steps.length - 1;
    const at = final(await ask({ type: 'goto', step: last }));
    if (at.type !== 'state') throw new Error(JSON.stringify(at));
    expect(at.live.exercise!.done).toBe(false);
    const shown = final(await ask({ type: 'show-me' }));
    if (shown.type !== 'state') throw new Error(JSON.stringify(shown));
    expect(shown.live.exercise!.done).toBe(true);
    expect(shown.live.snapshot!.comparison!.identical).toBe(true);
    const reset = final(await ask({ type: 'reset' }));
    if (reset.type !== 'state') throw new Error(JSON.stringify(reset));
    expect(reset.live.exercise!.done).toBe(false);

    expect(final(await ask({ type: 'goto', step: 99 })).type).toBe('error');
  }, 120_000);

  it('plays a lesson without a cluster (no engines) and returns "show me"’s experiment runs to start', async () => {
    const ask = hostWithLog();
    const lesson = lessons.find((l) => !l.scenario.cluster && l.scenario.steps.some((s) => s.exercise?.show_me.some((a) => a.do === 'simulate')))!;
    const stepIdx = lesson.scenario.steps.findIndex((s) => s.exercise?.show_me.some((a) => a.do === 'simulate'));
    const opened = final(await ask({ type: 'open', lesson, paper: PAPER, engines: [], step: stepIdx }));
    if (opened.type !== 'state') throw new Error(JSON.stringify(opened));
    expect(opened.live.snapshot).toBeNull();
    expect(opened.live.sim).toBeNull();
    const shown = final(await ask({ type: 'show-me' }));
    if (shown.type !== 'state') throw new Error(JSON.stringify(shown));
    expect(shown.runs!.length).toBeGreaterThan(0);
  });

  it('records the Cost view’s answer for lesson 14’s checks, and "show me" hands back the Cost view’s settings', async () => {
    const ask = hostWithLog();
    const lesson = byNumber(14);
    const at = lesson.scenario.steps.findIndex((s) => s.exercise?.show_me.some((a) => a.do === 'cost'));
    const opened = final(await ask({ type: 'open', lesson, paper: PAPER, engines: [], step: at }));
    if (opened.type !== 'state') throw new Error(JSON.stringify(opened));
    expect(opened.live.cost).toBeNull();
    expect(opened.live.checks.some((c) => c.ok)).toBe(false);
    const reading = readEstimate(
      { cluster: { workload: 'A', memory_to_data_ratio: 8, vcpus: 8 } },
      { break_even: { gc: 'Java', non_gc: 'C++', month: 49, horizon_months: 60 }, languages: { 'C++': { feasible: true, capacity_ops_per_s_per_cluster: 30000 }, Java: { feasible: true, capacity_ops_per_s_per_cluster: 17000 } }, model: { name: 'replicant_cost', version: 'test' } },
    );
    const recorded = final(await ask({ type: 'record-cost', reading }));
    if (recorded.type !== 'state') throw new Error(JSON.stringify(recorded));
    expect(recorded.live.cost).toEqual(reading);
    expect(recorded.live.checks.every((c) => c.ok)).toBe(true);
    expect(recorded.live.exercise!.done).toBe(false);
    const shown = final(await ask({ type: 'show-me' }));
    if (shown.type !== 'state') throw new Error(JSON.stringify(shown));
    expect(shown.cost).toEqual({ 'cost.ratio': '1.25' });
  });
  it('starts fetching the engines while the simulator still loads, and reports a failed engine as the open’s error', async () => {
    let simLoaded!: (m: typeof import('@replicant/sim/step/session')) => void;
    const started: string[] = [];
    const host = new LessonHost(
      (name) => {
        started.push(name);
        return name === 'go' ? Promise.reject(new Error('no Go today')) : loadEngine(name);
      },
      () => {
        started.push('sim');
        return new Promise((res) => (simLoaded = res));
      },
    );
    const out: LessonResponse[] = [];
    const opening = host.handle({ type: 'open', id: 1, lesson: byNumber(1), paper: PAPER, engines: ['cpp', 'go'], step: 0 }, (r) => out.push(r));
    // Before the simulator has arrived, both engines are already on their way.
    await Promise.resolve();
    expect(started).toEqual(['sim', 'cpp', 'go']);
    simLoaded(await import('@replicant/sim/step/session'));
    await opening;
    expect(final(out)).toEqual({ id: 1, type: 'error', message: 'no Go today', live: null });
  });
});
