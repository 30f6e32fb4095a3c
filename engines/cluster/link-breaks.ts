// Which peer links broke during a reset run, and whether a reset explains each break. Pure: log
// text and the run's reset record in, attribution out; reset.test.ts prints it.
//
// Why: a stop-31 reading took two breaks of the C++ node's link to the Java node for redials
// nobody asked for, off the 5 s grid of resets. They were resets: the test resets the inbound
// connections of the follower that the *current* leader names, so a leadership change moves
// which links a reset breaks, and a starved test process resets late. Read from the servers'
// own lines, with the test's record of which node it reset and when, a break is either after a
// reset of the node the link goes to, or unexplained; and a redial the server chose itself (a
// write that made no progress for 1 s, docs/protocol.md "Limits") is named as one.
//
// What each server logs (the sender's side; a link's reader logs nothing when it merely ends):
// - C++: "lost the connection to peer J (...)" on every break, after "no write progress to
//   peer J ..." when it redialled for a stalled write; it notices a reset within its 200 ms
//   idle poll or at its next write.
// - Rust and Java: "link to peer J at ADDR broke: REASON", REASON naming "no write progress"
//   for a stalled write; they notice a break only at their next write to that peer, which for
//   a follower can come seconds later (its next election).
// - Go: only the stalled write ("link to peer J at ADDR: no write progress ..."), not other
//   breaks.
import { lineStampMs } from './node-status.ts';

export interface LinkEvent {
  /** The server's stamp (ms since the epoch). */
  atMs: number;
  /** The node whose log it is, and the peer its link goes to. */
  from: number;
  to: number;
  /** `stalled`: the server closed the link itself, its write having made no progress for 1 s;
   * `broke`: the connection failed under it (a reset, a peer that closed). */
  kind: 'stalled' | 'broke';
}

export interface ResetRecord {
  /** When the test reset the node's inbound peer connections (ms since the epoch). */
  atMs: number;
  /** The leader the test read from the status lines, and the node whose inbound links it reset. */
  leader: number;
  follower: number;
}

const CPP_STALL = /no write progress to peer (\d+) /;
const CPP_BREAK = /lost the connection to peer (\d+) /;
const LINK_BROKE = /link to peer (\d+) at \S+ broke: (.*)$/;
const GO_STALL = /link to peer (\d+) at \S+: no write progress/;

/** Every link event in node `from`'s log, oldest first. A C++ "lost the connection" right after
 * that link's "no write progress" line is the same redial, counted once (as stalled). */
export function parseLinkEvents(logText: string, from: number): LinkEvent[] {
  const out: LinkEvent[] = [];
  const stalledNotYetBroken = new Set<number>();
  for (const line of logText.split('\n')) {
    if (line.includes('status {')) continue;
    const atMs = lineStampMs(line);
    if (atMs === null) continue;
    let m = CPP_STALL.exec(line);
    if (m) {
      const to = Number(m[1]);
      stalledNotYetBroken.add(to);
      out.push({ atMs, from, to, kind: 'stalled' });
      continue;
    }
    m = CPP_BREAK.exec(line);
    if (m) {
      const to = Number(m[1]);
      if (!stalledNotYetBroken.delete(to)) out.push({ atMs, from, to, kind: 'broke' });
      continue;
    }
    m = LINK_BROKE.exec(line);
    if (m) {
      out.push({ atMs, from, to: Number(m[1]), kind: m[2]!.includes('no write progress') ? 'stalled' : 'broke' });
      continue;
    }
    m = GO_STALL.exec(line);
    if (m) out.push({ atMs, from, to: Number(m[1]), kind: 'stalled' });
  }
  return out;
}

export interface LinkBreakSummary {
  /** Events at or after the run's start, per kind. */
  broke: number;
  stalled: LinkEvent[];
  /** Breaks with no reset of their peer since the link's previous event (or the run's start). */
  unexplained: LinkEvent[];
}

/**
 * Attributes each break at or after `startMs` to the resets: explained when the test reset the
 * inbound links of the node the link goes to after that link's previous event and at or before
 * this one (a sender may notice a reset only at its next write, so no upper delay is assumed; a
 * second break with no reset between is unexplained). A stalled write is never a reset's doing.
 */
export function attributeLinkBreaks(events: LinkEvent[], resets: ResetRecord[], startMs: number): LinkBreakSummary {
  const summary: LinkBreakSummary = { broke: 0, stalled: [], unexplained: [] };
  const previous = new Map<string, number>();
  for (const e of [...events].sort((a, b) => a.atMs - b.atMs)) {
    const key = `${e.from}>${e.to}`;
    const since = Math.max(previous.get(key) ?? startMs, startMs);
    previous.set(key, e.atMs);
    if (e.atMs < startMs) continue;
    if (e.kind === 'stalled') {
      summary.stalled.push(e);
      continue;
    }
    summary.broke++;
    // (the test stamps a reset just before it makes it, on the servers' clock: a break it
    // caused is never stamped earlier)
    const explained = resets.some((r) => r.follower === e.to && r.atMs >= since && r.atMs <= e.atMs);
    if (!explained) summary.unexplained.push(e);
  }
  return summary;
}

/** "12 breaks, each after a reset of its peer; no write-progress redial" or what was not. */
export function describeLinkBreaks(s: LinkBreakSummary, startMs: number): string {
  const at = (e: LinkEvent) => `n${e.from}->n${e.to} at +${((e.atMs - startMs) / 1000).toFixed(2)} s`;
  const breaks =
    s.unexplained.length === 0
      ? `${s.broke} link breaks, each after a reset of the node it goes to`
      : `${s.broke} link breaks, ${s.unexplained.length} not after a reset of the node it goes to (${s.unexplained.map(at).join(', ')})`;
  const stalls = s.stalled.length === 0 ? 'no write-progress redial' : `${s.stalled.length} write-progress redials (${s.stalled.map(at).join(', ')})`;
  return `${breaks}; ${stalls}`;
}
