// Plays a lesson on live step sessions (one per engine, driven in lock step). The state at the
// start of each step is canonical: every earlier step's scripted actions, plus the "show me"
// route of every earlier exercise, replayed from the seed. So Next, Back, "replay this step"
// and "reset to the last checkpoint" all land on the same bytes whatever the student tried.
import type { StepSession } from '@replicant/sim/api';
import type { Checkpoint, Lesson, LessonAction, LessonStep } from './format.ts';
import { applyLessonAction, differences } from './actions.ts';
import { evaluate, type CheckResult, type World } from './checkpoints.ts';
import type { PaperIndex } from './paper.ts';
import { readView } from './views.ts';
import { fillToString } from './template.ts';
import { chooseSettings, type ExperimentSettings, type SimReading } from './experiment.ts';
import type { CostReading } from './cost.ts';

export interface ExerciseStatus {
  done: boolean;
  results: CheckResult[];
  /** A forbidden action the student used since the exercise began, if any. */
  broke: string | null;
}

export class LessonRun {
  /** choices at the end of each step's scripted actions (index = step) */
  private scripted: string[][] = [];
  private current = 0;
  /** The current step's last experiment run; none at a step's checkpoint. */
  private simReading: SimReading | null = null;
  /**
   * The cost model's answer for the Cost view beside the text (what it shows now, whatever the
   * step: the view keeps its settings), or null while it computes.
   */
  private costReading: CostReading | null = null;

  constructor(
    readonly lesson: Lesson,
    readonly sessions: readonly StepSession[],
    readonly engineNames: readonly string[],
    readonly paper: PaperIndex,
  ) {}

  get nodes(): number {
    return this.lesson.scenario.cluster?.nodes ?? 0;
  }

  get step(): number {
    return this.current;
  }

  get stepCount(): number {
    return this.lesson.scenario.steps.length;
  }

  stepAt(i: number): LessonStep {
    const s = this.lesson.scenario.steps[i];
    if (!s) throw new Error(`${this.lesson.folder} has no step ${i + 1}`);
    return s;
  }

  private replay(choices: string[]): void {
    for (const s of this.sessions) s.replay(choices);
  }

  private choicesNow(): string[] {
    return this.sessions[0]?.choices() ?? [];
  }

  /** Choices at the start of step i (before its actions). */
  private startOf(i: number): string[] {
    if (i === 0) return [];
    const prev = this.scriptedEnd(i - 1);
    const ex = this.stepAt(i - 1).exercise;
    if (!ex || this.sessions.length === 0) return prev;
    this.replay(prev);
    for (const a of ex.show_me) if (a.do !== 'simulate' && a.do !== 'cost') applyLessonAction(this.sessions, a, this.nodes);
    return this.choicesNow();
  }

  private scriptedEnd(i: number): string[] {
    const known = this.scripted[i];
    if (known) return known;
    const start = this.startOf(i);
    if (this.sessions.length > 0) {
      this.replay(start);
      for (const a of this.stepAt(i).actions ?? []) applyLessonAction(this.sessions, a, this.nodes);
    }
    const end = this.choicesNow();
    this.scripted[i] = end;
    return end;
  }

  /** Goes to step i and plays its actions: the state the step's checkpoints are about. */
  goTo(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.stepCount) throw new Error(`no step ${i + 1} in ${this.lesson.folder} (it has ${this.stepCount})`);
    this.current = i;
    this.simReading = null;
    this.replay(this.scriptedEnd(i));
  }

  /** Step i before its own actions ran: "replay this step" plays them from here one by one. */
  goToStart(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.stepCount) throw new Error(`no step ${i + 1} in ${this.lesson.folder}`);
    this.current = i;
    this.simReading = null;
    this.scriptedEnd(i); // computed (and cached) first: it replays the sessions itself
    this.replay(this.startOf(i));
  }

  /** One scenario action on every engine (the replay plays a step's actions through this). */
  play(a: LessonAction): void {
    applyLessonAction(this.sessions, a, this.nodes);
  }

  /** Back to the state at this step's checkpoint, undoing whatever the student did since. */
  resetToCheckpoint(): void {
    this.goTo(this.current);
  }

  /**
   * Plays "show me" for the current step's exercise, from the checkpoint. Its experiment runs
   * (`simulate`) need the simulator, which the host runs (a worker in the browser): they are
   * returned, as the settings to run, in order, and their readings come back via recordSim.
   */
  showMe(): ExperimentSettings[] {
    const step = this.stepAt(this.current);
    const ex = step.exercise;
    if (!ex) throw new Error('this step has no exercise');
    this.resetToCheckpoint();
    const runs: ExperimentSettings[] = [];
    for (const a of ex.show_me) {
      if (a.do === 'cost') continue; // the host sets the Cost view: costShowMe()
      if (a.do !== 'simulate') applyLessonAction(this.sessions, a, this.nodes);
      else {
        if (!step.experiment) throw new Error('a "simulate" action needs the step to have an experiment');
        const { do: _do, ...change } = a;
        runs.push(chooseSettings(step.experiment, change));
      }
    }
    return runs;
  }

  /** The current step's experiment with the student's changes (checked against what it offers). */
  experimentSettings(change: Partial<ExperimentSettings>): ExperimentSettings {
    const e = this.stepAt(this.current).experiment;
    if (!e) throw new Error('this step has no experiment');
    return chooseSettings(e, change);
  }

  /** The result of an experiment run of this step: what its sim checkpoints now read. */
  recordSim(r: SimReading): void {
    this.simReading = r;
  }

  get sim(): SimReading | null {
    return this.simReading;
  }

  /** The Cost view's settings the current exercise's "show me" sets (merged, in order), if any. */
  costShowMe(): Record<string, string> | null {
    const ex = this.stepAt(this.current).exercise;
    const cost = (ex?.show_me ?? []).filter((a) => a.do === 'cost');
    return cost.length === 0 ? null : Object.assign({}, ...cost.map((a) => a.settings));
  }

  /** The cost model's answer for the Cost view as it is now (null while it computes). */
  recordCost(r: CostReading | null): void {
    this.costReading = r;
  }

  get cost(): CostReading | null {
    return this.costReading;
  }

  world(): World {
    const first = this.sessions[0];
    return {
      views: first ? Array.from({ length: this.nodes }, (_, i) => readView(first.inspect(i))) : [],
      effects: () => (first ? first.trace().map((e) => e.effects).join('') : ''),
      paper: this.paper,
      sim: this.simReading,
      cost: this.costReading,
    };
  }

  check(list: readonly Checkpoint[]): CheckResult[] {
    const w = this.world();
    return list.map((c) => evaluate(c, w));
  }

  checkpoints(): CheckResult[] {
    return this.check(this.stepAt(this.current).checkpoints ?? []);
  }

  exercise(): ExerciseStatus | null {
    const ex = this.stepAt(this.current).exercise;
    if (!ex) return null;
    const since = this.choicesNow().slice(this.scriptedEnd(this.current).length);
    const verbOf: Record<string, string> = { crash: 'crash', restart: 'restart', cut: 'cut', drop: 'drop', fire: 'fire' };
    const broke = since.map((c) => verbOf[c.split(' ')[0]!]).find((v) => v && (ex.forbid ?? []).includes(v as never)) ?? null;
    const results = this.check(ex.done_when);
    return { done: broke === null && results.every((r) => r.ok), results, broke };
  }

  /** The answer to a numeric question, reading a placeholder from the live state when asked to. */
  numericAnswer(): number | null {
    const q = this.stepAt(this.current).question;
    if (!q || q.kind !== 'number') return null;
    if (typeof q.answer === 'number') return q.answer;
    const v = Number.parseFloat(fillToString(`{{${q.answer.read}}}`, { world: this.world() }));
    return Number.isFinite(v) ? v : null;
  }

  /** Null when all engines agree byte for byte; else where they first differ. */
  differences(): string | null {
    return differences(this.sessions, this.engineNames, this.nodes);
  }
}
