// What the lesson worker does with each request, apart from the worker itself so that it can be
// tested in Node: it owns the engines' step sessions (one per chosen engine, in lock step), the
// cluster controller the Cluster view's controls drive, and the lesson's run; it answers every
// request with the live state the page draws. No UI code: the page renders, this computes.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { LessonRun } from '@replicant/lessons/runtime';
import type { ExperimentSettings } from '@replicant/lessons/src/experiment';
import { ClusterController } from '../cluster/controller.ts';
import { openEngineSessions, type SimModule } from '../cluster/sessions.ts';
import type { LessonRequest, LessonResponse, LiveState, PanelSnapshot } from './lesson-protocol.ts';

export class LessonHost {
  private run: LessonRun | null = null;
  private controller: ClusterController | null = null;

  constructor(
    private readonly loadEngine: (name: EngineName) => Promise<SyncEngine>,
    private readonly loadSim: () => Promise<SimModule>,
  ) {}

  /** Handles one request; `reply` gets its loading notes, then exactly one state or error. */
  async handle(m: LessonRequest, reply: (r: LessonResponse) => void): Promise<void> {
    try {
      let runs: ExperimentSettings[] | undefined;
      let cost: Record<string, string> | null = null;
      switch (m.type) {
        case 'open':
          await this.open(m, (what) => reply({ id: m.id, type: 'loading', what }));
          break;
        case 'goto':
          this.lessonRun().goTo(m.step);
          break;
        case 'goto-start':
          this.lessonRun().goToStart(m.step);
          break;
        case 'play':
          this.lessonRun().play(m.action);
          break;
        case 'act':
          if (!this.controller) throw new Error('this lesson has no cluster to act on');
          this.controller.apply(m.action);
          break;
        case 'reset':
          this.lessonRun().resetToCheckpoint();
          break;
        case 'show-me':
          runs = this.lessonRun().showMe();
          cost = this.lessonRun().costShowMe();
          break;
        case 'record-sim':
          this.lessonRun().recordSim(m.reading);
          break;
        case 'record-cost':
          this.lessonRun().recordCost(m.reading);
          break;
        default:
          throw new Error(`unknown request ${(m as { type?: unknown }).type}`);
      }
      reply({ id: m.id, type: 'state', live: this.live(), ...(runs ? { runs } : {}), ...(cost ? { cost } : {}) });
    } catch (e) {
      let live: LiveState | null = null;
      try {
        live = this.run ? this.live() : null;
      } catch {
        // the state itself cannot be read: the error says why
      }
      reply({ id: m.id, type: 'error', message: e instanceof Error ? e.message : String(e), live });
    }
  }

  private lessonRun(): LessonRun {
    if (!this.run) throw new Error('no lesson is open');
    return this.run;
  }

  private async open(m: Extract<LessonRequest, { type: 'open' }>, loading: (what: string) => void): Promise<void> {
    this.run = null;
    this.controller = null;
    const c = m.lesson.scenario.cluster;
    if (!c) {
      const run = new LessonRun(m.lesson, [], [], m.paper);
      run.goTo(m.step);
      this.run = run;
      return;
    }
    if (m.engines.length === 0) throw new Error('no engine chosen');
    const sessions = await openEngineSessions(m.engines, c.nodes, { seed: c.seed }, { engine: this.loadEngine, sim: this.loadSim }, loading);
    const run = new LessonRun(m.lesson, sessions.map((s) => s.session), m.engines, m.paper);
    run.goTo(m.step);
    this.controller = new ClusterController(sessions, c.nodes);
    this.run = run;
  }

  private panelSnapshot(): PanelSnapshot | null {
    if (!this.controller) return null;
    const { trace: _trace, ...rest } = this.controller.snapshot();
    return rest;
  }

  private live(): LiveState {
    const r = this.lessonRun();
    return {
      step: r.step,
      snapshot: this.panelSnapshot(),
      views: r.world().views,
      sim: r.sim,
      cost: r.cost,
      checks: r.checkpoints(),
      exercise: r.exercise(),
      answer: r.numericAnswer(),
      differences: r.differences(),
    };
  }
}
