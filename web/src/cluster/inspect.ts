// A node's inspect view (docs/protocol.md, "Inspect"), read into the shape the Cluster view
// draws. Nothing here is computed beyond what the core reports.
import { formatBallot } from '@replicant/engines/loader/ballot';
import { commandText } from './explain.ts';

export interface InspectInstance {
  ballot: number;
  index: number;
  client_id: number;
  request_id: number;
  state: 'in_progress' | 'committed' | 'executed';
  command: { type: 'get' | 'put' | 'del' | 'noop'; key?: string; value?: string };
}

export interface InspectView {
  id: number;
  num_peers: number;
  role: 'leader' | 'candidate' | 'follower';
  ballot: number;
  leader: number | null;
  commit_received: boolean;
  last_index: number;
  last_executed: number;
  global_last_executed: number;
  log: InspectInstance[];
  kv: { size: number; digest: string; entries: [string, string][] };
  prepare: { ballot: number; channel_id: number; promises: number } | null;
  accepts: { channel_id: number; index: number; votes: number; ticks: number; client: boolean }[];
  replay_remaining: number;
  commit_round: { channel_id: number; answered: number } | null;
  commit_gle: number;
  counters: Record<string, number>;
}

/** null when the node is down (the session reports 'null'). */
export function readInspect(json: string): InspectView | null {
  const v = JSON.parse(json) as InspectView | null;
  return v;
}

export interface LogRow {
  index: number;
  ballot: string;
  command: string;
  state: InspectInstance['state'];
  markers: string[];
}

/** The log table: one row per stored instance, with the executed and gle markers. */
export function logRows(v: InspectView): LogRow[] {
  return v.log.map((i) => ({
    index: i.index,
    ballot: formatBallot(i.ballot),
    command: commandText(i.command),
    state: i.state,
    markers: [i.index === v.last_executed ? 'last executed' : '', i.index === v.last_index ? 'last index' : ''].filter(Boolean),
  }));
}

/** "1–4 trimmed" when the prefix up to the global last executed index is gone. */
export function trimmedText(v: InspectView): string | null {
  return v.global_last_executed > 0 ? `${v.global_last_executed === 1 ? '1' : `1–${v.global_last_executed}`} trimmed (executed everywhere)` : null;
}

/**
 * The ballot a node works under: a candidate stands with the ballot of its prepare (its promised
 * ballot is still the old one until a majority answers), everyone else with the promised one.
 */
export function workingBallot(v: InspectView): number {
  return v.role === 'candidate' && v.prepare ? v.prepare.ballot : v.ballot;
}

/** How to read a ballot, for a hover: round.leader, and the initial ballot that has no leader. */
export function ballotHint(formatted: string): string {
  return formatted.endsWith('.-')
    ? `ballot ${formatted}: round ${formatted.split('.')[0]}, no leader yet (the ballot every node starts with)`
    : `ballot ${formatted}: round ${formatted.split('.')[0]}, led by n${formatted.split('.')[1]} (written round.leader)`;
}

/** What a node's disk holds (durability log), read from its records in the order written. */
export interface DiskView {
  records: number;
  /** the last promise record's ballot, or null if none was written */
  promise: number | null;
  /** each index's latest instance record, ascending (in_progress or committed: executed is not recorded) */
  entries: Pick<InspectInstance, 'index' | 'ballot' | 'state' | 'command'>[];
  /** the last snapshot record: executed up to here, and its keys */
  snapshot: { last_executed: number; keys: number } | null;
}

export function readDisk(records: readonly string[]): DiskView {
  let promise: number | null = null;
  let snapshot: DiskView['snapshot'] = null;
  const entries = new Map<number, DiskView['entries'][number]>();
  for (const line of records) {
    const r = JSON.parse(line) as { kind: string; ballot?: number; instance?: InspectInstance; last_executed?: number; kv?: unknown[] };
    if (r.kind === 'promise' && typeof r.ballot === 'number') promise = r.ballot;
    else if (r.kind === 'instance' && r.instance) entries.set(r.instance.index, { index: r.instance.index, ballot: r.instance.ballot, state: r.instance.state, command: r.instance.command });
    else if (r.kind === 'snapshot' && typeof r.last_executed === 'number') snapshot = { last_executed: r.last_executed, keys: Array.isArray(r.kv) ? r.kv.length : 0 };
  }
  return { records: records.length, promise, entries: [...entries.values()].sort((a, b) => a.index - b.index), snapshot };
}
