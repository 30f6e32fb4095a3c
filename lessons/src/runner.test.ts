// Plays every lesson's scenario on the real engines (all four in lock step, as the Learn view
// does with "all four"): every checkpoint must hold, the engines must stay byte-identical, and
// every exercise must be reached by its "show me" route and not before it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineName } from '@replicant/engines/loader/engine';
import { availableEngines, provider } from '@replicant/sim/cli/engines';
import { createStepSession } from '@replicant/sim/step/session';
import type { EngineProvider } from '@replicant/sim/api';
import { loadLessons } from './validate.ts';
import { paper, readLessonFolders } from './node/load-dir.ts';
import { LessonRun } from './runner.ts';
import type { Lesson } from './format.ts';
import { simulate } from '@replicant/sim/run/simulate';
import { experimentSpecs } from './experiment-spec.ts';
import { readRun, type Experiment, type ExperimentSettings } from './experiment.ts';
import { startCostModel } from './node/cost-model.ts';
import type { CostReading } from './cost.ts';

/** An experiment run as the Learn view's worker does it (fast fidelity needs no engine). */
function simulateExperiment(e: Experiment, s: ExperimentSettings) {
  const specs = experimentSpecs(e, s);
  return readRun(s, simulate(specs.run, null), specs.gc_off ? simulate(specs.gc_off, null) : null);
}

let engines: EngineName[] = [];
let provide: EngineProvider;
/** The cost model (Pyodide) at the Cost view's settings a step sets, as the Cost view runs it. */
let priceAt: (settings: Record<string, string>) => CostReading;
const { lessons } = loadLessons(readLessonFolders(), paper());

// Waits for what the tests need, however long the machine takes (no time limit: 0): the four
// engines' wasm and the cost model (Pyodide) took 47 s at a load average of 35, and 127 s with
// the process held to 5 % of a core, where the fixed 120 s limit this hook had failed the whole
// suite. A load that fails rejects, so the hook never waits in vain.
beforeAll(async () => {
  engines = await availableEngines();
  provide = await provider(engines);
  priceAt = await startCostModel();
}, 0);

function run(lesson: Lesson, names: EngineName[]): LessonRun {
  const c = lesson.scenario.cluster;
  const sessions = c ? names.map((e) => createStepSession({ cluster: { engines: Array<EngineName>(c.nodes).fill(e), seed: c.seed } }, provide)) : [];
  return new LessonRun(lesson, sessions, names, paper());
}

describe('scenario runner', () => {
  it('has all four engines to play the protocol lessons on', () => {
    expect(engines.sort()).toEqual(['cpp', 'go', 'java', 'rust']);
  });

  for (const lesson of lessons) {
    it(`plays lesson ${lesson.scenario.number} (${lesson.folder}) end to end on every engine`, () => {
      const r = run(lesson, engines);
      for (let i = 0; i < r.stepCount; i++) {
        r.goTo(i);
        // A step showing the Cost view sets its knobs; the view's cost model answers.
        const panel = r.stepAt(i).panel;
        const costSettings = panel?.view === 'cost' ? (panel.settings ?? {}) : null;
        if (costSettings) r.recordCost(priceAt(costSettings));
        const failed = r.checkpoints().filter((c) => !c.ok);
        expect(failed, `step ${i + 1}: ${JSON.stringify(failed)}`).toEqual([]);
        expect(r.differences(), `step ${i + 1}`).toBeNull();
        const ex = r.exercise();
        if (ex) {
          expect(ex.done, `step ${i + 1}: the exercise is already done before the student acts`).toBe(false);
          const e = r.stepAt(i).experiment;
          if (e) {
            // The experiment as the step sets it up does not reach the goal: the student must turn a knob.
            r.recordSim(simulateExperiment(e, r.experimentSettings({})));
            expect(r.exercise()!.done, `step ${i + 1}: the experiment's own settings already reach the goal`).toBe(false);
          }
          const runs = r.showMe();
          expect(r.sim, 'show me starts from the checkpoint: no run yet').toBeNull();
          for (const s of runs) r.recordSim(simulateExperiment(e!, s));
          const cost = r.costShowMe();
          if (cost) r.recordCost(priceAt({ ...costSettings, ...cost }));
          const after = r.exercise()!;
          expect(after.results.filter((c) => !c.ok), `step ${i + 1} show me`).toEqual([]);
          expect(after.done).toBe(true);
          expect(r.differences()).toBeNull();
        }
        const q = r.stepAt(i).question;
        if (q?.kind === 'number') expect(Number.isFinite(r.numericAnswer())).toBe(true);
      }
    });
  }

  it('Back lands on the same bytes as going forward (canonical step states)', () => {
    const lesson = lessons.find((l) => l.scenario.cluster)!;
    const r = run(lesson, ['go']);
    r.goTo(r.stepCount - 1);
    const forward = r.sessions[0]!.inspect(0);
    r.goTo(0);
    r.goTo(r.stepCount - 1);
    expect(r.sessions[0]!.inspect(0)).toBe(forward);
  });

  it('reset to checkpoint undoes the student’s own actions', () => {
    const lesson = lessons.find((l) => l.scenario.steps.some((s) => s.exercise))!;
    const i = lesson.scenario.steps.findIndex((s) => s.exercise);
    const r = run(lesson, ['go']);
    r.goTo(i);
    const before = r.sessions[0]!.choices();
    r.showMe();
    expect(r.sessions[0]!.choices().length).toBeGreaterThan(before.length);
    r.resetToCheckpoint();
    expect(r.sessions[0]!.choices()).toEqual(before);
  });

  it('a forbidden action spoils the exercise even when the goal is reached', () => {
    const r = run(lessons[0]!, ['go']);
    const fake: Lesson = structuredClone(lessons[0]!);
    const i = fake.scenario.steps.findIndex((s) => s.exercise);
    fake.scenario.steps[i]!.exercise!.forbid = ['drop'];
    const r2 = new LessonRun(fake, r.sessions, ['go'], paper());
    r2.goTo(i);
    r2.showMe();
    const ex = r2.exercise()!;
    expect(ex.broke).toBe('drop');
    expect(ex.done).toBe(false);
  });
});
