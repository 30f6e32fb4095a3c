// Drives one step session per chosen engine with the same actions, and reads back what the
// Cluster view draws. With several engines ("all four") it also checks, after every action,
// that they stayed byte-identical: same effects for every step and the same inspect view on
// every node.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { PendingItem, StepSession, TraceEntry } from '@replicant/sim/api';
import { readInspect, type InspectView } from './inspect.ts';

export type Action =
  | { kind: 'next' }
  | { kind: 'deliver'; id: number }
  | { kind: 'drop'; id: number }
  | { kind: 'dup'; id: number }
  | { kind: 'fire'; id: number }
  | { kind: 'client'; node: number; line: string }
  | { kind: 'crash'; node: number }
  | { kind: 'restart'; node: number }
  | { kind: 'restart-wiped'; node: number }
  | { kind: 'cut'; from: number; to: number }
  | { kind: 'heal' };

export interface Comparison {
  engines: EngineName[];
  identical: boolean;
  /** Where they first differ, in words; or what was compared. */
  detail: string;
}

export interface Snapshot {
  step: number;
  time_us: number;
  pending: PendingItem[];
  inspect: string[];
  views: (InspectView | null)[];
  /** each node's disk (durability log): its persisted records, canonical JSON; [] otherwise */
  disks: string[][];
  trace: TraceEntry[];
  choices: string[];
  cuts: [number, number][];
  comparison: Comparison | null;
}

type ReplayableSession = StepSession & { replay?(choices: string[]): void };

export interface EngineSession {
  engine: EngineName;
  session: ReplayableSession;
}

/** Links cut by the recorded choices ("cut a b" … "heal"), as [from, to] pairs. */
export function cutsFromChoices(choices: readonly string[]): [number, number][] {
  let cuts: [number, number][] = [];
  for (const c of choices) {
    if (c === 'heal') cuts = [];
    const m = /^cut (\d+) (\d+)$/.exec(c);
    if (m) {
      const pair: [number, number] = [Number(m[1]), Number(m[2])];
      if (!cuts.some(([a, b]) => a === pair[0] && b === pair[1])) cuts.push(pair);
    }
  }
  return cuts;
}

export function applyAction(s: StepSession, a: Action): void {
  switch (a.kind) {
    case 'next':
      s.next();
      return;
    case 'deliver':
      s.deliver(a.id);
      return;
    case 'drop':
      s.drop(a.id);
      return;
    case 'dup':
      s.duplicate(a.id);
      return;
    case 'fire':
      s.fire(a.id);
      return;
    case 'client':
      s.client(a.node, a.line);
      return;
    case 'crash':
      s.crash(a.node);
      return;
    case 'restart':
      s.restart(a.node);
      return;
    case 'restart-wiped':
      s.restartWiped(a.node);
      return;
    case 'cut':
      s.cut(a.from, a.to);
      return;
    case 'heal':
      s.heal();
      return;
  }
}

function compare(sessions: EngineSession[], nodes: number): Comparison | null {
  if (sessions.length < 2) return null;
  const [ref, ...others] = sessions;
  const engines = sessions.map((s) => s.engine);
  const refTrace = ref!.session.trace();
  for (const o of others) {
    const t = o.session.trace();
    const n = Math.min(t.length, refTrace.length);
    for (let i = 0; i < n; i++) {
      const a = refTrace[i]!;
      const b = t[i]!;
      if (a.event !== b.event || a.effects !== b.effects) {
        return { engines, identical: false, detail: `${o.engine} and ${ref!.engine} differ at step ${a.step}: n${a.node} emitted different effects` };
      }
    }
    if (t.length !== refTrace.length) return { engines, identical: false, detail: `${o.engine} recorded ${t.length} entries, ${ref!.engine} ${refTrace.length}` };
    for (let id = 0; id < nodes; id++) {
      if (o.session.inspect(id) !== ref!.session.inspect(id)) {
        return { engines, identical: false, detail: `${o.engine} and ${ref!.engine} differ in n${id}'s inspect view` };
      }
    }
  }
  return {
    engines,
    identical: true,
    detail: `${refTrace.length} trace entries and ${nodes} inspect views compared, byte for byte`,
  };
}

export class ClusterController {
  constructor(
    readonly sessions: EngineSession[],
    readonly nodes: number,
  ) {
    if (sessions.length === 0) throw new Error('no engine to run');
  }

  private get primary(): ReplayableSession {
    return this.sessions[0]!.session;
  }

  /** The step the sessions are at now (not the last one drawn). */
  get step(): number {
    return this.primary.steps_taken;
  }

  /** Applies an action to every engine's session. */
  apply(a: Action): void {
    for (const s of this.sessions) applyAction(s.session, a);
  }

  /**
   * Rebuilds every session from recorded choices, then rewinds to `step`. Returns the step the
   * whole list reaches (the end of the timeline).
   */
  load(choices: string[], step: number): number {
    let total = 0;
    for (const { session } of this.sessions) {
      if (typeof session.replay !== 'function') throw new Error('this simulator cannot replay recorded choices');
      session.replay(choices);
      total = session.steps_taken;
      if (step < total) session.rewind(step);
    }
    return total;
  }

  snapshot(): Snapshot {
    const s = this.primary;
    const inspect = Array.from({ length: this.nodes }, (_, id) => s.inspect(id));
    const choices = s.choices();
    return {
      step: s.steps_taken,
      time_us: s.time_us,
      pending: s.pending(),
      inspect,
      views: inspect.map(readInspect),
      disks: inspect.map((_, id) => s.disk(id)),
      trace: s.trace(),
      choices,
      cuts: cutsFromChoices(choices),
      comparison: compare(this.sessions, this.nodes),
    };
  }
}
