// The lesson format (docs/lessons.md): a folder per lesson with `lesson.md` (the prose, one
// `## ` section per idea) and `scenario.json` (what the player does, checks and asks). The
// schema in ../schema/scenario.schema.json is the contract; these types mirror it.

import type { Experiment, ExperimentSettings } from './experiment.ts';

export type Track = 'multipaxos' | 'gc-cost';
export type PanelView = 'cluster' | 'lab' | 'cost' | 'paper';

/** A node by number, or whichever node is leader when the action runs. */
export type NodeRef = number | 'leader';

export type Role = 'leader' | 'candidate' | 'follower';

export interface MessageFilter {
  type?: string;
  from?: number;
  to?: number;
}

export type LessonAction =
  | { do: 'run_ms'; ms: number }
  | { do: 'quiet' }
  | { do: 'next'; count?: number }
  | { do: 'fire'; node: NodeRef; timer: 'election' | 'commit' }
  | { do: 'elect'; node: number }
  | ({ do: 'deliver'; all?: boolean } & MessageFilter)
  | ({ do: 'drop'; all?: boolean } & MessageFilter)
  | { do: 'client'; node: NodeRef; line: string }
  | { do: 'crash'; node: NodeRef }
  | { do: 'restart'; node: number }
  | { do: 'cut'; from: number; to: number }
  | { do: 'isolate'; node: NodeRef }
  | { do: 'heal' }
  /** Sets an experiment's knobs (the step's own values where not given) and runs the simulator. */
  | ({ do: 'simulate' } & Partial<ExperimentSettings>)
  /** Sets the Cost view's knobs (its URL fields, "cost.ratio": "1.25"); the cost model answers. */
  | { do: 'cost'; settings: Record<string, string> };

export type NodeSet = 'all' | 'up' | 'majority' | number[];

export type Checkpoint =
  | { check: 'role'; node: number; is: Role }
  | { check: 'leader'; node: number }
  | { check: 'one_leader' }
  | { check: 'no_leader' }
  | { check: 'executed'; index: number; on: NodeSet }
  | { check: 'not_executed'; index: number; node: number }
  | { check: 'instance'; node: number; index: number; is: 'in_progress' | 'committed' | 'executed' | 'absent' | 'trimmed' }
  | { check: 'command'; node: number; index: number; is: string }
  | { check: 'kv'; on: NodeSet; key: string; value: string | null }
  | { check: 'same_state'; on: NodeSet }
  | { check: 'gle'; on: NodeSet; at_least?: number; at_most?: number }
  | { check: 'ballot'; node: number; round_at_least?: number; led_by?: number | null }
  | { check: 'ballot_above'; node: number; than: number }
  | { check: 'behind'; node: number; than: number; by_at_least: number }
  | { check: 'down'; node: number }
  | { check: 'up'; node: number }
  | { check: 'counter'; node: number; name: string; at_least: number }
  | { check: 'violation'; present: boolean }
  | { check: 'paper'; id: string; compare: '<' | '>' | '='; to: number | string }
  | { check: 'model'; metric: string; compare: '<' | '>' | '=' | '>='; to: number | string }
  /** The step's last experiment run (simulated): a metric, and optionally the settings it ran with. */
  | { check: 'sim'; metric: string; compare: '<' | '>' | '=' | '>=' | '<='; to: number | string; engine?: ExperimentSettings['engine']; ratio?: number; vcpus?: number }
  /** The cost model's answer for the Cost view beside the text: a metric, optionally at a setting. */
  | { check: 'cost'; metric: string; language?: string; compare: '<' | '>' | '=' | '>=' | '<='; to: number | string; ratio?: number; gc?: string; non_gc?: string };

export interface Exercise {
  goal: string;
  /** Reached when every one of these holds (evaluated after each of the student's actions). */
  done_when: Checkpoint[];
  /** Actions that are not allowed on the student's route (e.g. crash for "without crashing anyone"). */
  forbid?: ('crash' | 'restart' | 'cut' | 'drop' | 'fire')[];
  hints: string[];
  /** What "show me" plays from the start of the exercise. */
  show_me: LessonAction[];
}

export interface ChoiceOption {
  text: string;
  correct: boolean;
  why: string;
}

export type Question =
  | { kind: 'choice'; prompt: string; options: ChoiceOption[] }
  | { kind: 'number'; prompt: string; answer: number | { read: string }; tolerance?: number; unit?: string; why_right: string; why_wrong: string };

/** What a step's live panel shows when it is not the cluster (Lab, Cost, Paper settings). */
export interface Panel {
  view: PanelView;
  /** URL fields of that view to set, e.g. { "lab.ratio": "1.25" } */
  settings?: Record<string, string>;
  /** The paper rows this step cites (shown with their quotes). */
  cites?: string[];
}

export interface LessonStep {
  /** The `## ` heading in lesson.md whose text this step shows. */
  section: string;
  actions?: LessonAction[];
  checkpoints?: Checkpoint[];
  exercise?: Exercise;
  question?: Question;
  panel?: Panel;
  /** A small seeded simulator run the student sets up and starts (gc-cost lessons). */
  experiment?: Experiment;
}

export interface Scenario {
  $schema?: string;
  number: number;
  id: string;
  track: Track;
  title: string;
  view: PanelView;
  summary: string;
  cluster?: { nodes: 3 | 5; seed: number };
  steps: LessonStep[];
}

export interface LessonSection {
  heading: string;
  body: string;
  line: number;
}

export interface Lesson {
  folder: string;
  scenario: Scenario;
  title: string;
  sections: Map<string, LessonSection>;
}

export interface LessonError {
  file: string;
  line: number;
  message: string;
}
