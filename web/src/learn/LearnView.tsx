// The Learn view: a lesson's text beside the live panel it drives. For the protocol lessons the
// panel is the Cluster view's own parts (topology, node cards, pending list, links) on real
// engines; for the GC and cost lessons it is the Lab, Cost or Paper view itself, set up by the
// step. Checkpoints are evaluated on the live state after every change; exercises are detected
// from it; the URL holds lesson, step and engine; progress is kept in this browser.
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { ViewShortcutsContext, useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { MarksReadyContext, useReady } from '../app/ready.ts';
import { ENGINE_NAMES, languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { LessonRun, type CheckResult, type Lesson, type LessonAction } from '@replicant/lessons/runtime';
import { readRun, type ExperimentSettings } from '@replicant/lessons/src/experiment';
import { SimRunner, CancelledError } from '../simulation/runner.ts';
import { Experiment, type ExperimentStatus } from './Experiment.tsx';
import { BROWSER_ENGINES, loadBrowserEngine } from '../engines.ts';
import { loadSim } from '../simulation/sim-module.ts';
import type { Action, ClusterController, Snapshot } from '../cluster/controller.ts';
import { GROUPS, type AppState } from '../state/app-state.ts';
import { CATALOGUE, PAPER } from './catalogue.ts';
import { LessonText, Inline } from './LessonText.tsx';
import { Question } from './Question.tsx';
import { loadProgress, markDone, saveProgress, type Progress } from './progress.ts';

const PANELS: Record<'lab' | 'cost' | 'paper', ComponentType<ViewProps>> = {
  lab: lazy(() => import('../lab/LabView.tsx')),
  cost: lazy(() => import('../cost/CostView.tsx')),
  paper: lazy(() => import('../paper/PaperView.tsx')),
};
// The live cluster's controls load with the engines, after the lesson's text is interactive.
const LearnClusterPanel = lazy(() => import('./LearnClusterPanel.tsx'));
const REPLAY_INTERVAL_MS = 450;
const noShortcuts = () => {};

type Loaded = { state: 'loading'; what: string } | { state: 'failed'; message: string } | { state: 'ready' };
type Route = 'student' | 'show-me' | null;

function enginesFor(choice: string): EngineName[] {
  return choice === 'all' ? BROWSER_ENGINES : [choice as EngineName];
}

/** Applies a step's panel settings ("lab.ratios": "8,1.25") to the state, through each field's own parser. */
export function withPanelSettings(state: AppState, settings: Record<string, string> | undefined): { state: AppState; problems: string[] } {
  const next = structuredClone(state);
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(settings ?? {})) {
    const [prefix, name] = key.split('.');
    const group = Object.entries(GROUPS).find(([, g]) => g.prefix === prefix);
    const field = group ? (group[1].fields as Record<string, { parse(raw: string): unknown }>)[name ?? ''] : undefined;
    if (!group || !field) {
      problems.push(`unknown setting ${key}`);
      continue;
    }
    try {
      (next[group[0] as keyof typeof GROUPS] as Record<string, unknown>)[name!] = field.parse(raw);
    } catch (e) {
      problems.push(`${key}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { state: next, problems };
}

function CheckList({ results, label }: { results: CheckResult[]; label: string }) {
  if (results.length === 0) return null;
  return (
    <ul className="checkpoints" aria-label={label} data-testid="checkpoints">
      {results.map((r, i) => (
        <li key={i} data-testid="checkpoint" data-ok={r.ok} className={r.ok ? 'ok' : 'not-yet'}>
          <span aria-hidden="true">{r.ok ? '✓' : '○'}</span> <span className="sr-only">{r.ok ? 'holds: ' : 'not yet: '}</span>
          {r.expect}
          <span className="note"> — {r.saw}</span>
        </li>
      ))}
    </ul>
  );
}

export default function LearnView({ state, update }: ViewProps) {
  const { lessons, errors } = CATALOGUE;
  const [progress, setProgress] = useState<Progress>(() => loadProgress());
  const wanted = state.learn.lesson || progress.last?.lesson || 1;
  const lesson: Lesson | undefined = lessons.find((l) => l.scenario.number === wanted) ?? lessons[0];
  const steps = lesson?.scenario.steps.length ?? 1;
  const stepIdx = Math.min(Math.max(state.learn.step, 1), steps) - 1;
  const engineChoice = state.learn.engine;
  const engines = useMemo(() => enginesFor(engineChoice), [engineChoice]);
  const isCluster = lesson?.scenario.view === 'cluster';

  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading', what: 'the lesson' });
  const [snap, setSnap] = useState<Snapshot | null>(null);
  const [version, setVersion] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);
  const [hints, setHints] = useState(0);
  const [route, setRoute] = useState<Route>(null);
  const [replaying, setReplaying] = useState(false);
  const [simState, setSimState] = useState<ExperimentStatus>({ state: 'idle' });
  const simRunner = useRef<SimRunner | null>(null);
  const controller = useRef<ClusterController | null>(null);
  const run = useRef<LessonRun | null>(null);
  const stepRef = useRef(stepIdx);
  stepRef.current = stepIdx;

  const refresh = useCallback(() => {
    setSnap(controller.current ? controller.current.snapshot() : null);
    setVersion((v) => v + 1);
  }, []);

  // Build the engines' sessions for this lesson (or a run without a cluster).
  useEffect(() => {
    if (!lesson) return;
    let cancelled = false;
    controller.current = null;
    run.current = null;
    setSnap(null);
    setLoaded({ state: 'loading', what: 'the lesson' });
    (async () => {
      const c = lesson.scenario.cluster;
      if (!c) {
        run.current = new LessonRun(lesson, [], [], PAPER);
        run.current.goTo(stepRef.current);
        setLoaded({ state: 'ready' });
        refresh();
        return;
      }
      const unavailable = engines.filter((e) => !BROWSER_ENGINES.includes(e));
      if (unavailable.length > 0 || engines.length === 0) throw new Error(`the ${unavailable.map((e) => languageOf(e)).join(', ') || 'chosen'} engine is not part of this build`);
      setLoaded({ state: 'loading', what: 'the simulator' });
      const [sim, { ClusterController }] = await Promise.all([loadSim(), import('../cluster/controller.ts')]);
      const loadedEngines = new Map<EngineName, SyncEngine>();
      for (const e of engines) {
        setLoaded({ state: 'loading', what: `the ${languageOf(e)} engine (WebAssembly)` });
        loadedEngines.set(e, await loadBrowserEngine(e));
      }
      if (cancelled) return;
      const sessions = engines.map((e) => ({
        engine: e,
        session: sim.createStepSession({ cluster: { engines: Array<EngineName>(c.nodes).fill(e), seed: c.seed } }, (name) => loadedEngines.get(name)!),
      }));
      controller.current = new ClusterController(sessions, c.nodes);
      run.current = new LessonRun(lesson, sessions.map((s) => s.session), engines, PAPER);
      run.current.goTo(stepRef.current);
      setLoaded({ state: 'ready' });
      refresh();
    })().catch((e: unknown) => !cancelled && setLoaded({ state: 'failed', message: e instanceof Error ? e.message : String(e) }));
    return () => {
      cancelled = true;
    };
  }, [lesson, engines, refresh]);

  // Entering a step: its canonical state, fresh hints and answers; remember where we are.
  useEffect(() => {
    setHints(0);
    setRoute(null);
    setActionError(null);
    setReplaying(false);
    simRunner.current?.cancel();
    setSimState({ state: 'idle' });
    const r = run.current;
    if (r && loaded.state === 'ready') {
      try {
        r.goTo(stepIdx);
      } catch (e) {
        setActionError(e instanceof Error ? e.message : String(e));
      }
      refresh();
    }
    if (lesson) {
      setProgress((p) => {
        const next = { ...p, last: { lesson: lesson.scenario.number, step: stepIdx + 1, title: lesson.title, steps } };
        saveProgress(next);
        return next;
      });
    }
  }, [lesson, stepIdx, steps, loaded.state, refresh]);

  // A step that shows another view sets that view's knobs (once, on entering it).
  const panel = lesson?.scenario.steps[stepIdx]?.panel;
  useEffect(() => {
    if (!panel?.settings) return;
    update((s) => withPanelSettings(s, panel.settings).state);
  }, [panel, update]);

  const goStep = useCallback(
    (i: number) => {
      if (!lesson) return;
      const clamped = Math.min(Math.max(i, 0), steps - 1);
      update((s) => ({ ...s, learn: { ...s.learn, lesson: lesson.scenario.number, step: clamped + 1 } }));
    },
    [lesson, steps, update],
  );
  const goLesson = useCallback((n: number) => update((s) => ({ ...s, learn: { ...s.learn, lesson: n, step: 1 } })), [update]);

  const act = useCallback(
    (a: Action) => {
      const c = controller.current;
      if (!c || replaying) return;
      setActionError(null);
      try {
        c.apply(a);
      } catch (e) {
        setActionError(e instanceof Error ? e.message : String(e));
        return;
      }
      refresh();
    },
    [refresh, replaying],
  );

  useEffect(() => () => simRunner.current?.close(), []);

  // An experiment run: the simulator in its worker, a small seeded run; the reading becomes the
  // live state the step's sim checkpoints and placeholders read.
  const runExperiment = useCallback(
    async (runs: ExperimentSettings[]) => {
      const r = run.current;
      if (!r) return;
      simRunner.current ??= new SimRunner();
      try {
        const { experimentSpec } = await import('@replicant/lessons/src/experiment-spec');
        const e = r.stepAt(r.step).experiment!;
        for (const settings of runs) {
          setSimState({ state: 'running', settings });
          const { result } = await simRunner.current.run(experimentSpec(e, settings), () => {});
          r.recordSim(readRun(settings, result));
          setSimState({ state: 'done', settings });
          refresh();
        }
      } catch (e) {
        if (e instanceof CancelledError) return;
        setSimState({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
      }
    },
    [refresh],
  );

  const resetToCheckpoint = useCallback(() => {
    if (!run.current || replaying) return;
    simRunner.current?.cancel();
    setSimState({ state: 'idle' });
    run.current.resetToCheckpoint();
    setRoute(null);
    setActionError(null);
    refresh();
  }, [refresh, replaying]);

  const showMe = useCallback(() => {
    if (!run.current || replaying) return;
    simRunner.current?.cancel();
    setSimState({ state: 'idle' });
    try {
      const runs = run.current.showMe();
      setRoute('show-me');
      if (runs.length > 0) void runExperiment(runs);
    } catch (e) {
      setActionError(e instanceof Error ? e.message : String(e));
    }
    refresh();
  }, [refresh, replaying, runExperiment]);

  // Replay: back to the start of the step, then its actions one at a time.
  const replayStep = useCallback(() => {
    const r = run.current;
    if (!r || replaying) return;
    const actions: LessonAction[] = r.stepAt(stepRef.current).actions ?? [];
    r.goToStart(stepRef.current);
    setRoute(null);
    refresh();
    if (actions.length === 0) return;
    setReplaying(true);
    let k = 0;
    const t = setInterval(() => {
      try {
        r.play(actions[k]!);
      } catch (e) {
        setActionError(e instanceof Error ? e.message : String(e));
      }
      k++;
      refresh();
      if (k >= actions.length) {
        clearInterval(t);
        setReplaying(false);
      }
    }, REPLAY_INTERVAL_MS);
  }, [refresh, replaying]);

  // What the live state says now (recomputed after every change).
  const r = run.current;
  const step = lesson?.scenario.steps[stepIdx];
  const live = useMemo(() => {
    if (!r || loaded.state !== 'ready' || !step || replaying) return null;
    return { checks: r.checkpoints(), exercise: r.exercise(), world: r.world(), answer: r.numericAnswer(), differences: r.differences() };
    // version changes after every action on the sessions
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [r, loaded.state, step, version, replaying]);

  // The exercise counts as the student's own when it was reached without "show me".
  useEffect(() => {
    if (live?.exercise?.done && route === null) setRoute('student');
  }, [live, route]);

  const [answeredRight, setAnsweredRight] = useState(false);
  useEffect(() => setAnsweredRight(false), [lesson, stepIdx]);
  const stepComplete = !!live && live.checks.every((c) => c.ok) && (!live.exercise || live.exercise.done || route !== null) && (!step?.question || answeredRight);
  useEffect(() => {
    if (!lesson || !stepComplete) return;
    setProgress((p) => {
      const next = markDone(p, lesson.scenario.number, stepIdx + 1);
      saveProgress(next);
      return next;
    });
  }, [stepComplete, lesson, stepIdx]);

  const shortcuts = useMemo<Shortcut[]>(
    () => [
      { key: 'ArrowRight', label: 'next step of the lesson', run: () => goStep(stepRef.current + 1) },
      { key: 'ArrowLeft', label: 'previous step of the lesson', run: () => goStep(stepRef.current - 1) },
      { key: 'r', label: 'replay this step', run: replayStep },
      { key: 'x', label: 'reset to the last checkpoint', run: resetToCheckpoint },
      { key: 'i', label: 'show the next hint', run: () => setHints((h) => h + 1) },
      { key: 'n', label: 'carry out the next event (the one due first)', run: () => act({ kind: 'next' }) },
    ],
    [goStep, replayStep, resetToCheckpoint, act],
  );
  useViewShortcuts(shortcuts);
  // Interactive once the lesson's text and controls are on screen; the engines load after
  // (the view's data-live attribute says when its live state is there).
  useReady('learn', true);

  if (!lesson) {
    return (
      <div className="learn-view">
        <h1>Lessons</h1>
        <p className="problems" role="alert">
          No lesson could be loaded.
        </p>
        <LessonErrors />
      </div>
    );
  }
  const ctx = { world: live?.world ?? null, time_us: snap?.time_us };
  const section = step ? lesson.sections.get(step.section) : undefined;
  const doneSteps = progress.done[String(lesson.scenario.number)] ?? [];
  const tracks = [
    { id: 'multipaxos', label: 'MultiPaxos on the live engines' },
    { id: 'gc-cost', label: 'Tail latency, GC and cost' },
  ] as const;
  const Panel = step?.panel && step.panel.view !== 'cluster' ? PANELS[step.panel.view] : !isCluster && lesson.scenario.view !== 'cluster' ? PANELS[lesson.scenario.view] : null;
  const cites = step?.panel?.cites ?? [];

  return (
    <div className="learn-view" data-lesson={lesson.scenario.number} data-step={stepIdx + 1} data-live={live && r?.step === stepIdx ? 'ready' : loaded.state === 'ready' ? 'loading' : loaded.state}>
      <aside className="lesson-list" aria-label="Lessons">
        {tracks.map((t) => (
          <section key={t.id}>
            <h2>{t.label}</h2>
            <ol>
              {lessons
                .filter((l) => l.scenario.track === t.id)
                .map((l) => (
                  <li key={l.folder} value={l.scenario.number}>
                    <a
                      href={`?view=learn&learn.lesson=${l.scenario.number}`}
                      aria-current={l === lesson ? 'page' : undefined}
                      onClick={(e) => {
                        e.preventDefault();
                        goLesson(l.scenario.number);
                      }}
                      data-testid={`lesson-link-${l.scenario.number}`}
                    >
                      {l.title}
                    </a>
                    {(progress.done[String(l.scenario.number)]?.length ?? 0) >= l.scenario.steps.length && <span className="note"> ✓ done</span>}
                  </li>
                ))}
            </ol>
          </section>
        ))}
        <LessonErrors />
      </aside>
      <section className="lesson-main" aria-labelledby="lesson-title">
        <p className="note">
          Lesson {lesson.scenario.number} ·{' '}
          <span data-testid="lesson-step-counter" data-step={stepIdx + 1} data-steps={steps}>
            step {stepIdx + 1} of {steps}
          </span>
          {doneSteps.includes(stepIdx + 1) && <span> · completed</span>}
        </p>
        <h1 id="lesson-title">{lesson.title}</h1>
        <h2 data-testid="step-heading">{step?.section}</h2>
        {section && <LessonText body={section.body} ctx={ctx} />}
        {loaded.state === 'loading' && (
          <p className="status" role="status">
            <span className="spinner" aria-hidden="true" /> Loading {loaded.what}…
          </p>
        )}
        {loaded.state === 'failed' && (
          <p className="problems" role="alert" data-testid="learn-error">
            This lesson cannot run: {loaded.message}.
          </p>
        )}
        {actionError && (
          <p className="error-text" role="alert" data-testid="action-error">
            {actionError}
          </p>
        )}
        {live && (
          <div role="status" aria-live="polite">
            <CheckList results={live.checks} label="Checkpoints of this step, read from the engines" />
          </div>
        )}
        {step?.experiment && run.current && live && (
          <Experiment
            key={`experiment-${lesson.folder}-${stepIdx}`}
            experiment={step.experiment}
            status={simState}
            reading={live.world.sim ?? null}
            onRun={(change) => {
              try {
                void runExperiment([run.current!.experimentSettings(change)]);
              } catch (e) {
                setSimState({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
              }
            }}
          />
        )}
        {step?.exercise && live?.exercise && (
          <section className="exercise" aria-label="Exercise" data-testid="exercise" data-done={live.exercise.done} data-route={route ?? ''}>
            <h3>Try it yourself</h3>
            <p>
              <Inline text={step.exercise.goal} ctx={ctx} />
            </p>
            <p role="status" data-testid="exercise-status">
              {live.exercise.done
                ? route === 'show-me'
                  ? '✓ Reached by “show me”. Reset and try it your way too.'
                  : '✓ Well done: you reached it yourself.'
                : live.exercise.broke
                  ? `Not this way: the exercise does not allow “${live.exercise.broke}”. Reset to the checkpoint and try again.`
                  : 'Not reached yet.'}
            </p>
            <CheckList results={live.exercise.results} label="What the exercise checks" />
            {step.exercise.hints.slice(0, hints).map((h, i) => (
              <p key={i} className="hint" data-testid="hint">
                Hint {i + 1}: <Inline text={h} ctx={ctx} />
              </p>
            ))}
            <div className="toolbar">
              <button type="button" onClick={() => setHints((h) => h + 1)} disabled={hints >= step.exercise.hints.length} data-testid="hint-button" title="key i">
                {hints === 0 ? 'A hint' : 'Another hint'} ({hints}/{step.exercise.hints.length})
              </button>
              <button type="button" onClick={showMe} data-testid="show-me">
                Show me
              </button>
            </div>
          </section>
        )}
        {step?.question && <Question key={`${lesson.folder}-${stepIdx}`} question={step.question} ctx={ctx} answer={live?.answer ?? null} onRight={() => setAnsweredRight(true)} />}
        <nav className="lesson-nav toolbar" aria-label="Lesson steps">
          <button type="button" onClick={() => goStep(stepIdx - 1)} disabled={stepIdx === 0} data-testid="lesson-back" aria-label="previous step" title="key ←">
            ◀ Back
          </button>
          <button type="button" onClick={replayStep} disabled={loaded.state !== 'ready' || replaying} data-testid="lesson-replay" title="key r">
            Replay this step
          </button>
          <button type="button" onClick={resetToCheckpoint} disabled={loaded.state !== 'ready' || replaying} data-testid="lesson-reset" title="key x">
            Reset to checkpoint
          </button>
          {stepIdx < steps - 1 ? (
            <button type="button" className="primary" onClick={() => goStep(stepIdx + 1)} data-testid="lesson-next" aria-label="next step" title="key →">
              Next ▶
            </button>
          ) : (
            (() => {
              const following = lessons.find((l) => l.scenario.number > lesson.scenario.number);
              return following ? (
                <button type="button" className="primary" onClick={() => goLesson(following.scenario.number)} data-testid="lesson-next-lesson">
                  Next lesson: {following.title} ▶
                </button>
              ) : (
                <span className="note">Last lesson.</span>
              );
            })()
          )}
        </nav>
        <p className="note">{lesson.scenario.summary}</p>
      </section>
      <section className="lesson-panel" aria-label="Live panel">
        {isCluster && (
          <div className="toolbar">
            <label className="knob">
              <span>Engine</span>
              <select
                value={engineChoice}
                onChange={(e) => update((s) => ({ ...s, learn: { ...s.learn, engine: e.target.value as typeof engineChoice } }))}
                data-testid="learn-engine"
              >
                {ENGINE_NAMES.map((e) => (
                  <option key={e} value={e} disabled={!BROWSER_ENGINES.includes(e)}>
                    {languageOf(e)}
                  </option>
                ))}
                <option value="all">all four, side by side</option>
              </select>
            </label>
            <button type="button" onClick={() => act({ kind: 'next' })} disabled={!snap} data-testid="next-event" title="key n">
              Next event
            </button>
          </div>
        )}
        {isCluster && snap && (
          <Suspense fallback={<p className="loading" role="status">Loading the cluster's controls…</p>}>
            <LearnClusterPanel snap={snap} act={act} />
          </Suspense>
        )}
        {cites.length > 0 && (
          <table className="cites" data-testid="cites" aria-label="The paper's numbers this step uses">
            <thead>
              <tr>
                <th>value</th>
                <th>where</th>
                <th>the paper's words</th>
              </tr>
            </thead>
            <tbody>
              {cites.map((id) => {
                const f = PAPER.get(id);
                return f ? (
                  <tr key={id} data-paper-id={id}>
                    <td className="mono">
                      {f.value} {f.unit}
                    </td>
                    <td>{f.where}</td>
                    <td>“{f.quote}”</td>
                  </tr>
                ) : null;
              })}
            </tbody>
          </table>
        )}
        {Panel && (
          <ViewShortcutsContext.Provider value={noShortcuts}>
            <MarksReadyContext.Provider value={false}>
              <Suspense fallback={<p className="loading" role="status">Loading the panel…</p>}>
                <div className="embedded-view" data-testid="embedded-view">
                  <Panel state={state} update={update} />
                </div>
              </Suspense>
            </MarksReadyContext.Provider>
          </ViewShortcutsContext.Provider>
        )}
      </section>
    </div>
  );
}

function LessonErrors() {
  const { errors } = CATALOGUE;
  if (errors.length === 0) return null;
  return (
    <div className="problems" role="alert" data-testid="lesson-errors">
      <p>Lessons that could not be loaded:</p>
      <ul>
        {errors.map((e, i) => (
          <li key={i} className="mono">
            lessons/{e.file}:{e.line}: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
