// Plain-words explanations of what the engines did, made only from their own records: the
// canonical event fed to a node and the effects (JSON Lines) it emitted (docs/protocol.md,
// "Events", "Effects", "Peer messages"). Pure: the same record always reads the same.
import { formatBallot } from '@replicant/engines/loader/ballot';
import { plural } from './plural.ts';

interface Command {
  type: 'get' | 'put' | 'del' | 'noop';
  key?: string;
  value?: string;
}

interface Instance {
  ballot: number;
  index: number;
  state: string;
  command: Command;
}

type Message =
  | { type: 'prepare_request'; from: number; to: number; ballot: number }
  | { type: 'prepare_response'; from: number; to: number; ok: boolean; ballot: number; instances: Instance[] }
  | { type: 'accept_request'; from: number; to: number; instance: Instance }
  | { type: 'accept_response'; from: number; to: number; ok: boolean; ballot: number }
  | { type: 'commit_request'; from: number; to: number; ballot: number; last_executed: number; global_last_executed: number }
  | { type: 'commit_response'; from: number; to: number; channel_id: number; ok: boolean; ballot: number; last_executed: number }
  | { type: 'snapshot'; from: number; to: number; ballot: number; last_executed: number; kv: [string, string][] }
  // GC mitigation (docs/protocol.md, "GC mitigation"; docs/mitigation.md)
  | { type: 'gc_request'; from: number; to: number; ballot: number; pause_us: number }
  | { type: 'gc_grant'; from: number; to: number; ballot: number }
  | { type: 'gc_release'; from: number; to: number; ballot: number }
  | { type: 'handoff'; from: number; to: number; ballot: number; target: number };

const b = (ballot: number) => formatBallot(ballot);
const n = (id: number) => `n${id}`;
const ms = (us: number) => `${Number((us / 1000).toFixed(1))} ms`;
const STATE_WORDS: Record<string, string> = { in_progress: 'in progress', committed: 'committed', executed: 'executed' };

export function commandText(c: Command): string {
  if (c.type === 'noop') return 'no-op';
  return c.type === 'put' ? `put ${c.key} ${c.value ?? ''}`.trimEnd() : `${c.type} ${c.key}`;
}

/** The short label a message carries on the Cluster view's links. */
export function messageLabel(m: Message): { kind: string; text: string } {
  switch (m.type) {
    case 'prepare_request':
      return { kind: 'prepare', text: `prepare ${b(m.ballot)}` };
    case 'prepare_response':
      return { kind: 'promise', text: m.ok ? `promise ${b(m.ballot)}${m.instances.length ? ` +${m.instances.length}` : ''}` : `reject ${b(m.ballot)}` };
    case 'accept_request':
      return { kind: 'accept', text: `accept #${m.instance.index} ${b(m.instance.ballot)}` };
    case 'accept_response':
      return { kind: 'accepted', text: m.ok ? `accepted ${b(m.ballot)}` : `reject ${b(m.ballot)}` };
    case 'commit_request':
      return { kind: 'commit', text: `heartbeat ≤${m.last_executed} ${b(m.ballot)}` };
    case 'commit_response':
      return { kind: 'commit ok', text: m.ok ? `heartbeat ok ≤${m.last_executed}` : `reject ${b(m.ballot)}` };
    case 'snapshot':
      return { kind: 'snapshot', text: `snapshot ≤${m.last_executed} (${m.kv.length} keys)` };
    case 'gc_request':
      return { kind: 'gc ask', text: `may I collect? (${ms(m.pause_us)})` };
    case 'gc_grant':
      return { kind: 'gc grant', text: 'collect now' };
    case 'gc_release':
      return { kind: 'gc release', text: 'collection done' };
    case 'handoff':
      return { kind: 'handoff', text: `lead now ${b(m.ballot)}` };
  }
}

export function explainMessage(m: Message): string {
  switch (m.type) {
    case 'prepare_request':
      return `${n(m.from)} asks ${n(m.to)} to promise ballot ${b(m.ballot)} (phase 1: prepare).`;
    case 'prepare_response':
      return m.ok
        ? `${n(m.from)} promises ${n(m.to)} ballot ${b(m.ballot)} and sends ${m.instances.length === 0 ? 'no log entries' : `${m.instances.length} log entr${m.instances.length === 1 ? 'y' : 'ies'} it holds beyond the trimmed prefix`} (phase 1: promise).`
        : `${n(m.from)} refuses ${n(m.to)}'s prepare: it has already promised ballot ${b(m.ballot)}.`;
    case 'accept_request':
      return `${n(m.from)} asks ${n(m.to)} to accept “${commandText(m.instance.command)}” at index ${m.instance.index}, ballot ${b(m.instance.ballot)} (phase 2: accept).`;
    case 'accept_response':
      return m.ok ? `${n(m.from)} tells ${n(m.to)} it accepted (ballot ${b(m.ballot)}; phase 2: accepted).` : `${n(m.from)} rejects ${n(m.to)}'s accept: it follows the newer ballot ${b(m.ballot)}.`;
    case 'commit_request':
      return `${n(m.from)}, the leader, sends its heartbeat to ${n(m.to)} (commit phase): it has executed up to index ${m.last_executed}, and everyone has executed up to ${m.global_last_executed}.`;
    case 'commit_response':
      // Channel 0 belongs to no commit round: it is a follower's gap ask (docs/protocol.md, Repair).
      if (m.ok && m.channel_id === 0) return `${n(m.from)} saw a gap in its log and asks ${n(m.to)} for the missing entries: it has executed up to index ${m.last_executed}.`;
      return m.ok ? `${n(m.from)} answers the heartbeat: it has executed up to index ${m.last_executed}.` : `${n(m.from)} rejects ${n(m.to)}'s heartbeat: it follows the newer ballot ${b(m.ballot)}.`;
    case 'snapshot':
      return `${n(m.from)} sends ${n(m.to)} a snapshot of its key-value store (${m.kv.length} key${m.kv.length === 1 ? '' : 's'}, executed up to index ${m.last_executed}): ${n(m.to)} needs entries the others have already trimmed (state transfer).`;
    case 'gc_request':
      return `${n(m.from)} asks the leader ${n(m.to)} for permission to collect garbage (a pause of about ${ms(m.pause_us)}): under BLADE at most a minority collects at once.`;
    case 'gc_grant':
      return `${n(m.from)}, the leader, lets ${n(m.to)} collect now.`;
    case 'gc_release':
      return `${n(m.from)} tells the leader ${n(m.to)} its collection is over, so another node may collect.`;
    case 'handoff':
      return `${n(m.from)}, the leader, is about to collect garbage and hands its leadership to ${n(m.to)}: ${n(m.to)} should stand for election at once (BLADE).`;
  }
}

/** The one name people see for a core's timer: the leader's commit timer is its heartbeat. */
export function timerName(timer: string): 'election' | 'heartbeat' {
  return timer === 'election' ? 'election' : 'heartbeat';
}

/** "due in 2.5 ms", or "due now" once its time has come (never a negative delay). */
export function dueText(due_us: number, now_us: number): string {
  const ms = (due_us - now_us) / 1000;
  return ms < 0.05 ? 'due now' : `due in ${ms.toFixed(1)} ms`;
}

// The simulator's notes use its own shorthand ("m16 0->1 accept_request delivered", "link 2->1
// cut"); people read node names and the phase names of the labels.
const TYPE_WORDS: Record<string, string> = {
  prepare_request: 'prepare',
  prepare_response: 'promise',
  accept_request: 'accept',
  accept_response: 'accepted',
  commit_request: 'heartbeat',
  commit_response: 'heartbeat answer',
  snapshot: 'snapshot',
  gc_request: 'request to collect',
  gc_grant: 'permission to collect',
  gc_release: 'collection done',
  handoff: 'leadership handoff',
};

export function humanNote(note: string): string {
  return note
    .replace(/\b(\d+)->(\d+)\b/g, 'n$1 → n$2')
    .replace(/\b(prepare|accept|commit)_(request|response)\b/g, (w) => TYPE_WORDS[w] ?? w)
    .replace(/\btimer commit of\b/g, 'heartbeat timer of')
    .replace(/\btimer election of\b/g, 'election timer of');
}

/** What feeding this event to node `node` means. */
export function explainEvent(node: number, eventJson: string): string {
  const e = JSON.parse(eventJson) as { type: string; timer?: string; line?: string; msg?: Message; persist_id?: number; records?: unknown[]; pause_us?: unknown };
  switch (e.type) {
    case 'start':
      return `${n(node)} starts with an empty log.`;
    case 'timer':
      return e.timer === 'election' ? `${n(node)}'s election timer goes off.` : `${n(node)}'s heartbeat timer goes off.`;
    case 'client':
      return `A client sends “${e.line}” to ${n(node)}.`;
    case 'message':
      return `${n(node)} receives ${messageLabel(e.msg!).text} from ${n(e.msg!.from)}.`;
    case 'persisted':
      return `${n(node)}'s disk confirms write ${e.persist_id}: what it held back until then may now leave.`;
    case 'gc_pending':
      return `${n(node)}'s runtime says a garbage collection is coming${typeof e.pause_us === 'number' && e.pause_us > 0 ? ` (a pause of about ${ms(e.pause_us)})` : ''}.`;
    case 'gc_done':
      return `${n(node)}'s garbage collection is over.`;
    case 'restart':
      return (e.records ?? []).length === 0
        ? `${n(node)} restarts with an empty disk: it remembers no promise and no log.`
        : `${n(node)} restarts and reads back the ${plural((e.records ?? []).length, 'record')} it wrote to disk.`;
    default:
      return `${n(node)} is given an event it does not know.`;
  }
}

type Effect =
  | { type: 'send'; msg: Message }
  | { type: 'reply'; client_id: number; request_id: number; result: string; value?: string; leader?: number; pause_us?: number }
  | { type: 'collect'; pause_us: number }
  | { type: 'set_timer'; timer: string; delay_us: number }
  | { type: 'cancel_timer'; timer: string }
  | { type: 'error'; error: string }
  | { type: 'persist'; persist_id: number; records: { kind: string }[] }
  | ({ type: 'trace'; kind: string } & Record<string, unknown>);

const RECORD_WORDS: Record<string, string> = {
  promise: 'its promise',
  instance: 'a log entry',
  snapshot: 'a snapshot',
  // docs/protocol.md, "Compaction": the batch it starts replaces everything written before it
  checkpoint: 'a checkpoint (its ballot and key-value store, after which the disk may drop every earlier record)',
};

/** "its promise and 2 log entries": what one persist batch writes. */
function recordsText(records: { kind: string }[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, c]) => (kind === 'instance' ? plural(c, 'log entry', 'log entries') : kind === 'snapshot' ? plural(c, 'snapshot') : RECORD_WORDS[kind] ?? kind));
  return parts.length <= 1 ? (parts[0] ?? 'nothing') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function explainTrace(node: number, t: { kind: string } & Record<string, unknown>): string {
  const num = (k: string) => Number(t[k]);
  switch (t.kind) {
    case 'follower':
      return num('leader') === 0xf
        ? `${n(node)} now holds ballot ${b(num('ballot'))}, which names no leader.`
        : `${n(node)} now follows ballot ${b(num('ballot'))}: n${num('leader')} leads.`;
    case 'leader':
      return `${n(node)} has promises from a majority and becomes leader with ballot ${b(num('ballot'))} (its log reaches index ${num('last_index')}).`;
    case 'election':
      return `${n(node)} stands for election with ballot ${b(num('ballot'))}.`;
    case 'election_abandoned':
      return `${n(node)} abandons its election for ballot ${b(num('ballot'))}.`;
    case 'replay':
      return `${n(node)} re-proposes ${num('count')} entr${num('count') === 1 ? 'y' : 'ies'} (indexes ${num('from_index')}–${num('to_index')}) under its own ballot, so every follower ends with the same log.`;
    case 'instance':
      return `${n(node)}'s log: index ${num('index')} is ${STATE_WORDS[String(t.state)] ?? String(t.state)} at ballot ${b(num('ballot'))}.`;
    case 'execute':
      return `${n(node)} applies index ${num('index')} to its key-value store (${t.result === 'ok' ? 'ok' : 'key not found'}).`;
    case 'stale':
      return `${n(node)} finds index ${num('index')} written under an older ballot ${b(num('ballot'))}; it waits for the new leader's replay.`;
    case 'accept_timeout':
      return `${n(node)} got no majority for index ${num('index')} within three heartbeats; it proposes it again.`;
    case 'trim':
      return `${n(node)} drops its log up to index ${num('global_last_executed')}: every node has executed those entries.`;
    case 'commit_gle':
      return `${n(node)} learns that every node has executed up to index ${num('value')}.`;
    case 'repair':
      return `${n(node)} re-sends indexes ${num('from_index')}–${num('to_index')} to n${num('peer')}, which could not execute them (a lost message or an entry from an older ballot).`;
    case 'fill':
      return `${n(node)} finds ${num('count')} index${num('count') === 1 ? '' : 'es'} (${num('from_index')}–${num('to_index')}) that no promise holds; nothing can have been chosen there, so it proposes a no-op in ${num('count') === 1 ? 'it' : 'each'} and execution can pass.`;
    case 'step_down':
      return `${n(node)} steps down: heard no majority for ${ms(num('window_us'))} (only ${num('heard')} of its cluster, itself included, answered); it stops its heartbeats so the others can elect a leader.`;
    case 'recovered':
      return `${n(node)} is back from its disk: ballot ${b(num('ballot'))}, log up to index ${num('last_index')} (${plural(num('records'), 'record')} read).`;
    case 'snapshot_sent':
      return `${n(node)} sends n${num('peer')} a snapshot of its store at index ${num('last_executed')}: n${num('peer')} is behind what the cluster has trimmed.`;
    case 'snapshot_installed':
      return `${n(node)} installs the snapshot: its store now stands at index ${num('last_executed')}, and it catches up from there.`;
    case 'gc_ask':
      return `${n(node)}'s runtime says a collection is coming; ${n(node)} asks the leader n${num('leader')} for permission first (BLADE).`;
    case 'gc_grant':
      return `${n(node)}, the leader, lets n${num('peer')} collect now.`;
    case 'gc_queued':
      return `${n(node)}, the leader, makes n${num('peer')} wait: as many nodes as may pause at once already are (${plural(num('waiting'), 'node')} waiting).`;
    case 'gc_release':
      return `n${num('peer')} has finished collecting; ${n(node)} frees its place for the next one.`;
    case 'gc_grant_expired':
      return `${n(node)}, the leader, stops counting n${num('peer')} as collecting: its permission outlived the predicted pause.`;
    case 'gc_timeout':
      return `${n(node)} heard no answer from its leader in time and collects anyway: a silent leader must not hold collections off for ever.`;
    case 'gc_done':
      return `${n(node)}'s collection is over.`;
    case 'handoff':
      return `${n(node)}, the leader, is about to collect: it hands its leadership to n${num('target')} first, so clients are not stuck behind its pause (BLADE).`;
    case 'violation':
      return `SAFETY VIOLATION at ${n(node)}, index ${num('index')}: ${String(t.reason).replace(/_/g, ' ')}. Two different commands were chosen for one slot.`;
    default:
      return `${n(node)} records “${t.kind}”.`;
  }
}

const REPLY_WORDS: Record<string, (e: { value?: string; leader?: number; pause_us?: number }) => string> = {
  ok: (e) => (e.value ? `ok, the value is “${e.value}”` : 'ok'),
  not_found: () => 'key not found',
  retry: () => 'retry (no leader yet, or too busy)',
  leader_is: (e) => `ask n${e.leader}, the leader`,
  bad_command: () => 'bad command',
  busy: (e) => `busy: a garbage collection will pause this node for about ${ms(e.pause_us ?? 0)}, longer than the client's deadline; try another replica now (MITMEM)`,
};

/** One sentence per effect line. */
export function explainEffect(node: number, line: string): string {
  const e = JSON.parse(line) as Effect;
  switch (e.type) {
    case 'send':
      return explainMessage(e.msg);
    case 'reply':
      return `${n(node)} answers the client: ${(REPLY_WORDS[e.result] ?? (() => e.result))(e)}.`;
    case 'set_timer':
      return e.timer === 'election'
        ? `${n(node)} will stand for election in ${ms(e.delay_us)} unless a leader's heartbeat arrives first.`
        : `${n(node)} will send its next heartbeat in ${ms(e.delay_us)}.`;
    case 'cancel_timer':
      return `${n(node)} stops its ${e.timer === 'election' ? 'election' : 'heartbeat'} timer.`;
    case 'error':
      return `${n(node)} rejects the event as malformed (${e.error.replace(/_/g, ' ')}).`;
    case 'trace':
      return explainTrace(node, e);
    case 'collect':
      return `${n(node)} may collect garbage now (a pause of about ${ms(e.pause_us)}): its runtime runs the collection and reports when it is done.`;
    case 'persist':
      return `${n(node)} asks its disk to write ${recordsText(e.records)} (write ${e.persist_id}); until the disk confirms, ${n(node)} sends and answers nothing.`;
    default:
      return `${n(node)} emits an effect this lab does not know.`;
  }
}

export interface Explained {
  step: number;
  node: number;
  headline: string;
  details: string[];
  notes: string[];
}

/** A step of the session (api.ts TraceEntry) in words: what happened, then what it caused. */
export function explainEntry(entry: { step: number; node: number; event: string; effects: string; notes: string[] }): Explained {
  // In emission order: the order of effects is part of the protocol students learn.
  const lines = entry.effects === '' ? [] : entry.effects.replace(/\n$/, '').split('\n');
  return {
    step: entry.step,
    node: entry.node,
    // The simulator's own actions (a drop, a cut, a crash) feed no event: their notes say it all.
    headline: entry.event === '' ? '' : explainEvent(entry.node, entry.event) + electionOutcome(entry.event, lines),
    details: lines.map((l) => explainEffect(entry.node, l)),
    notes: entry.notes.map(humanNote),
  };
}

// An election timer that goes off is only a check: the node stands for election when no
// heartbeat came since the timer was armed, and otherwise just arms it again. Say which.
function electionOutcome(eventJson: string, effects: string[]): string {
  const e = JSON.parse(eventJson) as { type: string; timer?: string };
  if (e.type !== 'timer' || e.timer !== 'election') return '';
  const kinds = effects.map((l) => JSON.parse(l) as { type: string; kind?: string; timer?: string });
  if (kinds.some((k) => k.type === 'trace' && k.kind === 'election')) return ' No heartbeat from a leader arrived in time, so it stands for election.';
  if (kinds.length > 0 && kinds.every((k) => k.type === 'set_timer' && k.timer === 'election')) {
    return ' A leader’s heartbeat arrived since it was armed, so it stays a follower and arms the timer again.';
  }
  return '';
}
