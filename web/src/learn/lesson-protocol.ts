// The messages between the Learn view and the lesson worker, which owns the wasm engines, their
// step sessions and the lesson's run (web/src/worker/engine-worker.ts, shared with the Cluster view). The page only draws what
// the worker reports, so loading and stepping the engines never holds the page's main thread.
// Every request gets exactly one answer with its id: the live state after it, or an error (with
// the live state as it is after the failed request).
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { CheckResult, ExerciseStatus, Lesson, LessonAction, PaperIndex } from '@replicant/lessons/runtime';
import type { ExperimentSettings, SimReading } from '@replicant/lessons/src/experiment';
import type { NodeView } from '@replicant/lessons/src/views';
import type { CostReading } from '@replicant/lessons/src/cost';
import type { Action, Snapshot } from '../cluster/controller.ts';

export type LessonRequest =
  /** Starts a lesson (engines loaded as needed) at step `step` (0-based). */
  | { id: number; type: 'open'; lesson: Lesson; paper: PaperIndex; engines: EngineName[]; step: number }
  /** A step's checkpoint: its canonical state. */
  | { id: number; type: 'goto'; step: number }
  /** A step before its own actions ("replay this step" then plays them one by one). */
  | { id: number; type: 'goto-start'; step: number }
  | { id: number; type: 'play'; action: LessonAction }
  /** What the student does with the cluster's controls. */
  | { id: number; type: 'act'; action: Action }
  | { id: number; type: 'reset' }
  /**
   * Plays the exercise's solution; its experiment runs come back in `runs` for the page to start,
   * and the Cost view's settings it sets in `cost`.
   */
  | { id: number; type: 'show-me' }
  | { id: number; type: 'record-sim'; reading: SimReading }
  /** The cost model's answer the Cost view beside the text shows (null while it computes). */
  | { id: number; type: 'record-cost'; reading: CostReading | null };

/** What the cluster panel draws: the controller's snapshot without the trace (the page never reads it). */
export type PanelSnapshot = Omit<Snapshot, 'trace'>;

/** What the page shows of the live state; null parts before the engines are there. */
export interface LiveState {
  /** The step (0-based) this state belongs to. */
  step: number;
  snapshot: PanelSnapshot | null;
  views: (NodeView | null)[];
  sim: SimReading | null;
  cost: CostReading | null;
  checks: CheckResult[];
  exercise: ExerciseStatus | null;
  answer: number | null;
  differences: string | null;
}

export type LessonResponse =
  | { id: number; type: 'loading'; what: string }
  | { id: number; type: 'state'; live: LiveState; runs?: ExperimentSettings[]; cost?: Record<string, string> }
  | { id: number; type: 'error'; message: string; live: LiveState | null };
