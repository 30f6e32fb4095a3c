// Scenario actions on live step sessions, one per engine. Every action is resolved once, on
// the first session (which message, which timer, which node is leader), and the same concrete
// calls go to every session: the engines are byte-identical, so the ids agree; `identical`
// checks that they really did.
import type { StepSession } from '@replicant/sim/api';
import type { LessonAction, MessageFilter, NodeRef } from './format.ts';
import { readView } from './views.ts';

export class ActionError extends Error {}

/** Steps a single action may take before it is stopped (a scenario that never settles). */
const MAX_STEPS_PER_ACTION = 20_000;

type Call = (s: StepSession) => void;

function each(sessions: readonly StepSession[], call: Call): void {
  for (const s of sessions) call(s);
}

export function resolveNode(s: StepSession, ref: NodeRef, nodes: number): number {
  if (ref !== 'leader') return ref;
  for (let i = 0; i < nodes; i++) if (readView(s.inspect(i))?.role === 'leader') return i;
  throw new ActionError('no node is leader now, so "leader" names nobody');
}

function matches(p: { kind: string; from?: number; to?: number; type?: string; node?: number }, f: MessageFilter): boolean {
  // "client" names a client command in flight (to = the node it goes to).
  if (f.type === 'client') return p.kind === 'client' && (f.to === undefined || p.node === f.to);
  return p.kind === 'message' && (f.type === undefined || p.type === f.type) && (f.from === undefined || p.from === f.from) && (f.to === undefined || p.to === f.to);
}

function filterText(f: MessageFilter): string {
  return [f.type ?? 'message', f.from !== undefined ? `from n${f.from}` : '', f.to !== undefined ? `to n${f.to}` : ''].filter(Boolean).join(' ');
}

export function applyLessonAction(sessions: readonly StepSession[], a: LessonAction, nodes: number): void {
  if (a.do === 'simulate') throw new ActionError('a "simulate" action runs the simulator: the lesson player plays it (LessonRun.showMe hands it over)');
  if (a.do === 'cost') throw new ActionError('a "cost" action sets the Cost view: the lesson player plays it (LessonRun.costShowMe hands it over)');
  const first = sessions[0];
  if (!first) throw new ActionError('no engine session');
  switch (a.do) {
    case 'run_ms': {
      const t = first.time_us + a.ms * 1000;
      return each(sessions, (s) => void s.run_until(t, MAX_STEPS_PER_ACTION));
    }
    case 'quiet': {
      // Deliver what is in flight (messages and client commands), oldest first; timers wait.
      for (let k = 0; k < MAX_STEPS_PER_ACTION; k++) {
        const p = first.pending().find((x) => x.kind !== 'timer');
        if (!p) return;
        each(sessions, (s) => void s.deliver(p.id));
      }
      throw new ActionError(`"quiet" did not settle within ${MAX_STEPS_PER_ACTION} deliveries`);
    }
    case 'next':
      for (let k = 0; k < (a.count ?? 1); k++) each(sessions, (s) => void s.next());
      return;
    case 'fire': {
      const node = resolveNode(first, a.node, nodes);
      const t = first.pending().find((p) => p.kind === 'timer' && p.node === node && p.timer === a.timer);
      if (!t) throw new ActionError(`n${node} has no ${a.timer} timer armed`);
      return each(sessions, (s) => void s.fire(t.id));
    }
    case 'elect': {
      applyLessonAction(sessions, { do: 'fire', node: a.node, timer: 'election' }, nodes);
      return applyLessonAction(sessions, { do: 'quiet' }, nodes);
    }
    case 'deliver':
    case 'drop': {
      const filter: MessageFilter = { type: a.type, from: a.from, to: a.to };
      const ids = first.pending().filter((p) => matches(p, filter)).map((p) => p.id);
      if (ids.length === 0) throw new ActionError(`no pending ${filterText(filter)} to ${a.do}`);
      for (const id of a.all ? ids : ids.slice(0, 1)) each(sessions, (s) => (a.do === 'deliver' ? void s.deliver(id) : s.drop(id)));
      return;
    }
    case 'client': {
      const node = resolveNode(first, a.node, nodes);
      return each(sessions, (s) => void s.client(node, a.line));
    }
    case 'crash': {
      const node = resolveNode(first, a.node, nodes);
      return each(sessions, (s) => s.crash(node));
    }
    case 'restart':
      return each(sessions, (s) => s.restart(a.node));
    case 'cut':
      return each(sessions, (s) => s.cut(a.from, a.to));
    case 'isolate': {
      const node = resolveNode(first, a.node, nodes);
      for (let other = 0; other < nodes; other++) {
        if (other === node) continue;
        each(sessions, (s) => {
          s.cut(node, other);
          s.cut(other, node);
        });
      }
      return;
    }
    case 'heal':
      return each(sessions, (s) => s.heal());
  }
}

/** Null when every session has the same trace and inspect views; else where they differ. */
export function differences(sessions: readonly StepSession[], names: readonly string[], nodes: number): string | null {
  const [ref, ...others] = sessions;
  if (!ref) return null;
  const refTrace = JSON.stringify(ref.trace());
  for (const [k, o] of others.entries()) {
    if (JSON.stringify(o.trace()) !== refTrace) return `${names[k + 1]} and ${names[0]} recorded different traces`;
    for (let i = 0; i < nodes; i++) if (o.inspect(i) !== ref.inspect(i)) return `${names[k + 1]} and ${names[0]} differ in n${i}'s inspect view`;
  }
  return null;
}
