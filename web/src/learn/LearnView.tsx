// The Learn view: a lesson's text beside the live panel it drives. For the protocol lessons the
// panel is the Cluster view's own parts (topology, node cards, pending list, links) on real
// engines; for the GC and cost lessons it is the Lab, Cost or Paper view itself, set up by the
// step. The engines, their sessions and the lesson's run live in the engine worker (web/src/worker/engine-worker.ts),
// so the page answers the student while they load and step; checkpoints are evaluated there on
// the live state after every change and the page draws what it reports. The URL holds lesson,
// step and engine; progress is kept in this browser.
import { Suspense, lazy, memo, startTransition, useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { ViewShortcutsContext, useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { MarksReadyContext, useReady } from '../app/ready.ts';
import { ENGINE_NAMES, languageOf } from '@replicant/engines/loader/catalogue';
import type { CheckResult, Lesson, LessonAction } from '@replicant/lessons/runtime';
import { chooseSettings, readRun, type ExperimentSettings } from '@replicant/lessons/src/experiment';
import { SimRunner, CancelledError } from '../simulation/runner.ts';
import { Experiment, type ExperimentStatus } from './Experiment.tsx';
import { BROWSER_ENGINES, enginesFor } from '../engines.ts';
import { LoadStatus, type Loaded } from '../cluster/LoadStatus.tsx';
import type { Action } from '../cluster/controller.ts';
import { LessonClient, LessonRequestError, type LessonRequestBody } from './lesson-client.ts';
import type { LiveState } from './lesson-protocol.ts';
import { readEstimate } from '@replicant/lessons/src/cost';
import { EstimateListenerContext, type EstimateListener } from '../cost/estimate-listener.ts';
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
// The live cluster's controls load while the engines do, after the lesson's text is interactive.
const loadClusterPanel = () => import('./LearnClusterPanel.tsx');
const LearnClusterPanel = lazy(loadClusterPanel);
const REPLAY_INTERVAL_MS = 450;
const noShortcuts = () => {};

type Route = 'student' | 'show-me' | null;

/**
 * Runs `run` when the page is next idle (after the current frame is painted), within a second
 * at the latest; returns the cancel function an effect's clean-up calls.
 */
export function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 1000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
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
  const [liveState, setLive] = useState<LiveState | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [hints, setHints] = useState(0);
  const [route, setRoute] = useState<Route>(null);
  const [replaying, setReplaying] = useState(false);
  const [simState, setSimState] = useState<ExperimentStatus>({ state: 'idle' });
  // The live cluster panel draws its first state in parts (LearnClusterPanel); the lesson is live
  // once every part is on screen.
  const [panelDrawn, setPanelDrawn] = useState(false);
  const onPanelDrawn = useCallback(() => setPanelDrawn(true), []);
  const simRunner = useRef<SimRunner | null>(null);
  const client = useRef<LessonClient | null>(null);
  // Bumped on every lesson opened: answers about an earlier one are dropped.
  const generation = useRef(0);
  // Bumped on every step entered: a replay in progress stops.
  const replayToken = useRef(0);
  const stepRef = useRef(stepIdx);
  stepRef.current = stepIdx;
  // The step whose checkpoint the worker's state was last set to (by open or goto); null before.
  const workerStep = useRef<number | null>(null);

  useEffect(
    () => () => {
      client.current?.close();
      client.current = null;
    },
    [],
  );

  /** Sends a request to the lesson worker; its answer becomes the live state on screen. */
  const send = useCallback(async (body: LessonRequestBody) => {
    const gen = generation.current;
    const c = client.current;
    if (!c) return null;
    try {
      const r = await c.request(body);
      // A new state redraws the whole panel: in slices (a transition), so the page keeps answering.
      if (gen === generation.current) startTransition(() => setLive(r.live));
      return gen === generation.current ? r : null;
    } catch (e) {
      if (gen !== generation.current) return null;
      if (e instanceof LessonRequestError && e.live) setLive(e.live);
      setActionError(e instanceof Error ? e.message : String(e));
      return null;
    }
  }, []);

  // Open the lesson in the worker: the engines' sessions (or a run without a cluster). The
  // worker starts once the page is idle after the lesson's text is on screen, so its script and
  // the engines' wasm do not compete with the text for the machine's cores.
  useEffect(() => {
    if (!lesson) return;
    const gen = ++generation.current;
    setLive(null);
    setPanelDrawn(false);
    setLoaded({ state: 'loading', what: 'the lesson' });
    const c = lesson.scenario.cluster;
    const unavailable = engines.filter((e) => !BROWSER_ENGINES.includes(e));
    if (c && (unavailable.length > 0 || engines.length === 0)) {
      setLoaded({ state: 'failed', message: `the ${unavailable.map((e) => languageOf(e)).join(', ') || 'chosen'} engine is not part of this build` });
      return;
    }
    return whenIdle(() => {
      if (gen !== generation.current) return;
      client.current ??= new LessonClient();
      if (c) void loadClusterPanel();
      const step = stepRef.current;
      client.current
        // The worker's progress ("the Go engine…") is a transition too: it never holds up a keystroke.
        .request({ type: 'open', lesson, paper: PAPER, engines: c ? engines : [], step }, (what) => gen === generation.current && startTransition(() => setLoaded({ state: 'loading', what })))
        .then(({ live: l }) => {
          if (gen !== generation.current) return;
          // The worker's state is this step's checkpoint: entering it needs no second request.
          workerStep.current = step;
          startTransition(() => {
            setLive(l);
            setLoaded({ state: 'ready' });
          });
        })
        .catch((e: unknown) => gen === generation.current && setLoaded({ state: 'failed', message: e instanceof Error ? e.message : String(e) }));
    });
  }, [lesson, engines]);

  // Entering a step: its canonical state, fresh hints and answers; remember where we are.
  useEffect(() => {
    setHints(0);
    setRoute(null);
    setActionError(null);
    setReplaying(false);
    replayToken.current++;
    simRunner.current?.cancel();
    setSimState({ state: 'idle' });
    if (loaded.state === 'ready' && workerStep.current !== stepIdx) {
      workerStep.current = stepIdx;
      void send({ type: 'goto', step: stepIdx });
    }
    if (lesson) {
      setProgress((p) => {
        const last = { lesson: lesson.scenario.number, step: stepIdx + 1, title: lesson.title, steps };
        // The same place again (the engines arriving re-runs this effect): no new record, no redraw.
        if (p.last && JSON.stringify(p.last) === JSON.stringify(last)) return p;
        const next = { ...p, last };
        saveProgress(next);
        return next;
      });
    }
  }, [lesson, stepIdx, steps, loaded.state, send]);

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
      if (!liveState?.snapshot || replaying) return;
      setActionError(null);
      void send({ type: 'act', action: a });
    },
    [liveState, send, replaying],
  );

  useEffect(() => () => simRunner.current?.close(), []);

  // An experiment run: the simulator in its worker, a small seeded run; the reading becomes the
  // live state the step's sim checkpoints and placeholders read.
  const runExperiment = useCallback(
    async (runs: ExperimentSettings[]) => {
      const e = lesson?.scenario.steps[stepRef.current]?.experiment;
      if (!e) return;
      simRunner.current ??= new SimRunner();
      try {
        const { experimentSpecs } = await import('@replicant/lessons/src/experiment-spec');
        for (const settings of runs) {
          setSimState({ state: 'running', settings });
          const specs = experimentSpecs(e, settings);
          const { result } = await simRunner.current.run(specs.run, () => {});
          // A mitigated run's GC-off pair, which its reading compares with.
          const gcOff = specs.gc_off ? (await simRunner.current.run(specs.gc_off, () => {})).result : null;
          await send({ type: 'record-sim', reading: readRun(settings, result, gcOff) });
          setSimState({ state: 'done', settings });
        }
      } catch (e) {
        if (e instanceof CancelledError) return;
        setSimState({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
      }
    },
    [lesson, send],
  );

  const ready = loaded.state === 'ready' && liveState !== null;
  // Sets the panel's knobs. When that changes what the Cost view asks its model, the answer on
  // record is no longer what it shows: forget it until the view answers again.
  const applySettings = useCallback(
    (settings: Record<string, string> | undefined) => {
      if (!settings) return;
      const next = withPanelSettings(state, settings).state;
      if (JSON.stringify(next.cost) !== JSON.stringify(state.cost)) void send({ type: 'record-cost', reading: null });
      update((s) => withPanelSettings(s, settings).state);
    },
    [state, update, send],
  );
  const resetToCheckpoint = useCallback(() => {
    if (!ready || replaying) return;
    simRunner.current?.cancel();
    setSimState({ state: 'idle' });
    setActionError(null);
    // The panel's knobs go back to the step's own (the Cost view answers for them again).
    applySettings(panel?.settings);
    // With the state it resets to (both transitions commit together).
    void send({ type: 'reset' }).then(() => startTransition(() => setRoute(null)));
  }, [ready, replaying, send, panel, applySettings]);

  const showMe = useCallback(() => {
    if (!ready || replaying) return;
    simRunner.current?.cancel();
    setSimState({ state: 'idle' });
    setActionError(null);
    setRoute('show-me');
    applySettings(panel?.settings);
    void send({ type: 'show-me' }).then((r) => {
      if (!r) return setRoute(null);
      if (r.runs && r.runs.length > 0) void runExperiment(r.runs);
      // "Show me" sets the Cost view's knobs as the student would; the view's model answers.
      if (r.cost) applySettings(r.cost);
    });
  }, [ready, replaying, send, runExperiment, panel, applySettings]);

  // The Cost view beside the text reports the cost model's answer; the checks read it.
  const onEstimate = useCallback<EstimateListener>(
    (answer) => void send({ type: 'record-cost', reading: answer ? readEstimate(answer.inputs, answer.estimate) : null }),
    [send],
  );

  // Replay: back to the start of the step, then its actions one at a time (paced, so the student
  // sees each one); entering another step stops it.
  const replayStep = useCallback(() => {
    if (!ready || replaying || !lesson) return;
    const at = stepRef.current;
    const actions: LessonAction[] = lesson.scenario.steps[at]?.actions ?? [];
    const token = ++replayToken.current;
    setRoute(null);
    setReplaying(actions.length > 0);
    void (async () => {
      await send({ type: 'goto-start', step: at });
      for (const a of actions) {
        await new Promise((res) => setTimeout(res, REPLAY_INTERVAL_MS));
        if (token !== replayToken.current) return;
        await send({ type: 'play', action: a });
      }
      if (token === replayToken.current) setReplaying(false);
    })();
  }, [ready, replaying, lesson, send]);

  const step = lesson?.scenario.steps[stepIdx];
  const snap = liveState?.snapshot ?? null;
  // What the checkpoints say is not shown while a replay plays the step's actions.
  const live = replaying ? null : liveState;
  const world = useMemo(() => (liveState ? { views: liveState.views, paper: PAPER, sim: liveState.sim, cost: liveState.cost } : null), [liveState]);
  // One object while the state is the same, so the lesson's text is not redrawn for a loading note.
  const ctx = useMemo(() => ({ world, time_us: snap?.time_us }), [world, snap?.time_us]);

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
  const section = step ? lesson.sections.get(step.section) : undefined;
  const doneSteps = progress.done[String(lesson.scenario.number)] ?? [];
  const Panel = step?.panel && step.panel.view !== 'cluster' ? PANELS[step.panel.view] : !isCluster && lesson.scenario.view !== 'cluster' ? PANELS[lesson.scenario.view] : null;
  const cites = step?.panel?.cites ?? [];

  return (
    <div className="learn-view" data-lesson={lesson.scenario.number} data-step={stepIdx + 1} data-live={live && live.step === stepIdx && !replaying && (!isCluster || panelDrawn) ? 'ready' : loaded.state === 'ready' ? 'loading' : loaded.state}>
      <LessonList lessons={lessons} current={lesson.scenario.number} done={progress.done} onOpen={goLesson} />
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
        <LoadStatus loaded={loaded} cannotRun="This lesson cannot run" failedTestId="learn-error" actionError={actionError} />
        {live && (
          <div role="status" aria-live="polite">
            <CheckList results={live.checks} label="Checkpoints of this step, read from the engines" />
          </div>
        )}
        {step?.experiment && live && (
          <Experiment
            key={`experiment-${lesson.folder}-${stepIdx}`}
            experiment={step.experiment}
            status={simState}
            reading={live.sim}
            onRun={(change) => {
              try {
                void runExperiment([chooseSettings(step.experiment!, change)]);
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
            <LearnClusterPanel snap={snap} act={act} onDrawn={onPanelDrawn} />
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
                  <EstimateListenerContext.Provider value={onEstimate}>
                    <Panel state={state} update={update} />
                  </EstimateListenerContext.Provider>
                </div>
              </Suspense>
            </MarksReadyContext.Provider>
          </ViewShortcutsContext.Provider>
        )}
      </section>
    </div>
  );
}

const TRACKS = [
  { id: 'multipaxos', label: 'MultiPaxos on the live engines' },
  { id: 'gc-cost', label: 'Tail latency, GC and cost' },
] as const;

/** The list of lessons by track; redrawn only when the lesson open or a lesson's progress changes. */
const LessonList = memo(function LessonList({ lessons, current, done, onOpen }: { lessons: Lesson[]; current: number; done: Progress['done']; onOpen: (n: number) => void }) {
  return (
    <aside className="lesson-list" aria-label="Lessons">
      {TRACKS.map((t) => (
        <section key={t.id}>
          <h2>{t.label}</h2>
          <ol>
            {lessons
              .filter((l) => l.scenario.track === t.id)
              .map((l) => (
                <li key={l.folder} value={l.scenario.number}>
                  <a
                    href={`?view=learn&learn.lesson=${l.scenario.number}`}
                    aria-current={l.scenario.number === current ? 'page' : undefined}
                    onClick={(e) => {
                      e.preventDefault();
                      onOpen(l.scenario.number);
                    }}
                    data-testid={`lesson-link-${l.scenario.number}`}
                  >
                    {l.title}
                  </a>
                  {(done[String(l.scenario.number)]?.length ?? 0) >= l.scenario.steps.length && <span className="note"> ✓ done</span>}
                </li>
              ))}
          </ol>
        </section>
      ))}
      <LessonErrors />
    </aside>
  );
});

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
