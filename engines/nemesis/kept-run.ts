// Reads back a nemesis run that was kept (`--out DIR`: its history and its servers' logs) into
// what the recovery check needs and the run's report does not hold: which node sent each
// acknowledgement, and when a restarted node wrote its first status line. Runs recorded before
// the nemesis noted the answering node are judged by the same rule this way.
//
// The servers stamp their log lines with the wall clock; the history's times count from the
// run's start. A C++, Rust or Go server logs "restarted from" within a millisecond of being
// spawned, so each of their restarts ties the two clocks (a JVM logs it only once it is up, so
// its restarts are not used); the median of those ties is the run's offset.
import type { HistoryOp } from '@replicant/checker/lincheck';
import { lineStampMs, parseStampedStatusLines } from '../cluster/node-status.ts';
import type { AckMark, KillMark } from './recovery.ts';

/** servers that log "restarted from" as soon as they are spawned */
const INSTANT_STARTERS = new Set(['cpp', 'rust', 'go']);

export interface KeptRun {
  acks: AckMark[];
  /** the report's faults with each restart's ready_ms taken from its server's log */
  faults: KillMark[];
  /** wall-clock ms of the run's start, as tied by the restarts */
  start_wall_ms: number;
  /** the last acknowledgement of the run's clients (not the final reads), ms */
  last_ack_ms: number;
}

/** null when no restart of an instant-starting server ties the clocks */
export function readKeptRun(engines: readonly string[], faults: readonly KillMark[], historyText: string, logs: readonly string[], clients: number): KeptRun | null {
  const starts = logs.map((text) => text.split('\n').filter((l) => l.includes(' restarted from ')).map((l) => lineStampMs(l)!));
  const ties: number[] = [];
  const restartsSeen = new Map<number, number>();
  for (const f of faults) {
    if (f.kind !== 'restart') continue;
    const k = (restartsSeen.get(f.node) ?? 0) + 1; // the first "restarted from" is the spawn
    restartsSeen.set(f.node, k);
    const wall = starts[f.node]?.[k];
    if (wall !== undefined && INSTANT_STARTERS.has(engines[f.node]!)) ties.push(wall - f.at_ms);
  }
  if (ties.length === 0) return null;
  ties.sort((a, b) => a - b);
  const start_wall_ms = ties[Math.floor(ties.length / 2)]!;
  const lines = logs.map((text) => parseStampedStatusLines(text).map((s) => ({ at_ms: s.atMs - start_wall_ms, role: s.status.role, ballot: s.status.ballot })));

  // a node sent an acknowledgement at t if its own status lines just before and just after t
  // show it leading at one ballot (1 s lines cannot place a change inside that second), or if
  // it led in the line before t and was killed after t, before its next line
  const kills = faults.filter((f) => f.kind === 'kill');
  const ledAround = (node: number, t_ms: number) => {
    const ls = lines[node]!;
    const next = ls.findIndex((l) => l.at_ms > t_ms);
    const before = next < 0 ? ls[ls.length - 1] : next === 0 ? undefined : ls[next - 1];
    if (before === undefined || before.role !== 'leader') return false;
    const after = next < 0 ? undefined : ls[next]!;
    if (kills.some((k) => k.node === node && k.at_ms > t_ms && (after === undefined || k.at_ms < after.at_ms))) return true;
    return after !== undefined && after.role === 'leader' && after.ballot === before.ballot;
  };
  const history = historyText.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as HistoryOp);
  const acks: AckMark[] = history
    .filter((op) => op.result !== 'unknown' && op.return_us !== undefined && op.client % (clients + 1) !== clients)
    .map((op) => op.return_us!)
    .sort((a, b) => a - b)
    .map((at_us) => {
      const led = [...engines.keys()].filter((i) => ledAround(i, at_us / 1000));
      return { at_us, node: led.length === 1 ? led[0]! : -1 };
    });
  const withReady = faults.map((f) => {
    if (f.kind !== 'restart') return f;
    const first = lines[f.node]!.find((l) => l.at_ms > f.at_ms);
    return { ...f, ready_ms: first === undefined ? null : Math.round(first.at_ms - f.at_ms) };
  });
  return { acks, faults: withReady, start_wall_ms, last_ack_ms: acks.length ? acks[acks.length - 1]!.at_us / 1000 : 0 };
}
