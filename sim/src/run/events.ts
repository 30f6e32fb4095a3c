// The load run's event kinds: what the run loop's one queue holds. Each kind has a name; the
// values are small integers only so the loop's switch stays a jump table.
import type { TimerName } from '../core/effects.ts';
import type { Flush } from '../models/storage.ts';
import type { NodeEvent } from './hosts.ts';

export const EV = {
  /** an event (message, client request, start) reaching a node */
  arrival: 0,
  /** a node's timer is due */
  timer: 2,
  /** a client thread starts its next operation */
  op_start: 3,
  /** a reply reaches a client thread */
  reply: 4,
  /** the periodic sweep for client requests that timed out */
  timeout_sweep: 5,
  /** a client resends after a `retry` */
  resend: 6,
  /** BLADE (the mitigation sandbox): the handoff reaches the new leader */
  blade_handoff: 7,
  /** BLADE: a permission request reaches the leader */
  blade_request: 8,
  /** BLADE: a permission reaches the node */
  blade_permission: 9,
  /** BLADE: is the node's collection over? */
  blade_check_done: 10,
  /** BLADE: the old leader tells a client who leads now */
  blade_new_leader: 11,
  /** durability: a flush of the node's device is done */
  flush_done: 12,
} as const;

/** An event on its way to a node: the event itself, addressed (one object per arrival). */
export type Arrival = NodeEvent & { k: typeof EV.arrival; node: number; inc: number; /** stepped ahead of the queue already */ taken?: true };

export type Ev =
  | Arrival
  | { k: typeof EV.timer; node: number; gen: number; timer: TimerName }
  | { k: typeof EV.op_start; thread: number }
  | { k: typeof EV.reply; thread: number; request_id: number; result: string; leader: number | undefined }
  | { k: typeof EV.timeout_sweep }
  | { k: typeof EV.resend; thread: number; request_id: number }
  /** `executed`: the old leader's executed index as it sent the handoff (the cores' commit point) */
  | { k: typeof EV.blade_handoff; from: number; to: number; executed: number }
  | { k: typeof EV.blade_request; node: number }
  | { k: typeof EV.blade_permission; node: number }
  | { k: typeof EV.blade_check_done; node: number }
  | { k: typeof EV.blade_new_leader; thread: number; from: number; to: number }
  | { k: typeof EV.flush_done; node: number; inc: number; flush: Flush };
