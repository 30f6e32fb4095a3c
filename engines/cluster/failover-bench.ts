// npm --workspace @replicant/engines run cluster:failover -- [--mixes 'go,go,go;cpp,rust,java']
//                                                           [--runs 10] [--out FILE.jsonl]
//                                                           [--b-servers 'go=PATH,cpp=PATH,…' --b-label old]
// Issue 20's failover figure with its spread: each run is one round of reset.test.ts's first
// test on a fresh 3-node cluster (reset a follower's peer connections under load, wait until it
// has caught up, kill the leader, time the first acknowledged operation after the kill). The
// mixes take turns run by run (mix A, mix B, …, then A again), so a burst of load from other
// processes falls on every mix rather than on one. Per mix it prints the median and min–max of
// the time to serve again and of the catch-up, how many runs served within
// the issue's 1 s, and the machine's 1-minute load average at each kill. Every run's history is
// checked with Porcupine and every acknowledged write read back; a run that fails either is
// reported as such, not dropped.
// With --b-servers every round runs twice, once with this checkout's servers (A) and once with
// the servers named there (B: another build, e.g. a commit before a change; REPLICANT_SERVER_*),
// A and B taking turns, and each mix is reported per build. The rounds run the servers with
// --status-interval-ms (catch-up-timing.ts), so a B build must be from commit ab365f7 on: an
// older server refuses the flag and exits 2.
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { EngineName } from '../loader/engine.ts';
import { isEngineName } from '../loader/catalogue.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';
import { describeRound, resetThenFailover, type ResetFailoverRound } from './reset-failover.ts';

const DEFAULT_MIXES = 'go,go,go;cpp,cpp,cpp;rust,rust,rust;java,java,java;go,cpp,rust;cpp,rust,java;rust,java,go';
const ISSUE_BUDGET_MS = 1000;

const { values } = parseArgs({
  options: {
    mixes: { type: 'string', default: DEFAULT_MIXES },
    runs: { type: 'string', default: '10' },
    out: { type: 'string' },
    'b-servers': { type: 'string' },
    'b-label': { type: 'string', default: 'B' },
  },
});
/** The B build's server per engine (REPLICANT_SERVER_<ENGINE> while a B round runs). */
const bServers = new Map<string, string>();
for (const pair of values['b-servers'] ? values['b-servers'].split(',') : []) {
  const [engine, path] = pair.split('=');
  if (!engine || !path || !isEngineName(engine)) {
    console.error(`--b-servers takes engine=path pairs (go, cpp, rust, java), got ${JSON.stringify(pair)}`);
    process.exit(2);
  }
  bServers.set(engine, path);
}
const builds = bServers.size > 0 ? ['A', values['b-label']!] : ['A'];

/** Runs fn with the B build's servers in the environment (or none, for A). */
async function withBuild<T>(build: string, fn: () => Promise<T>): Promise<T> {
  if (build === 'A') return fn();
  const saved = new Map([...bServers.keys()].map((e) => [e, process.env[`REPLICANT_SERVER_${e.toUpperCase()}`]]));
  for (const [e, path] of bServers) process.env[`REPLICANT_SERVER_${e.toUpperCase()}`] = path;
  try {
    return await fn();
  } finally {
    for (const [e, v] of saved) {
      if (v === undefined) delete process.env[`REPLICANT_SERVER_${e.toUpperCase()}`];
      else process.env[`REPLICANT_SERVER_${e.toUpperCase()}`] = v;
    }
  }
}
const mixes = values.mixes!.split(';').map((m) => m.split(',') as EngineName[]);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive integer, got ${JSON.stringify(values.runs)}`);
  process.exit(2);
}

function median(sorted: number[]): number {
  if (sorted.length === 0) return NaN;
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

function spread(xs: (number | null)[]): string {
  const ok = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  const missing = xs.length - ok.length;
  if (ok.length === 0) return `none of ${xs.length}`;
  return `median ${median(ok)} ms, min ${ok[0]} – max ${ok[ok.length - 1]} ms${missing ? `, ${missing} never` : ''}`;
}

const keyOf = (engines: EngineName[], build: string) => (builds.length > 1 ? `${engines.join(',')} [${build}]` : engines.join(','));
const results = new Map<string, (ResetFailoverRound | { error: string })[]>(mixes.flatMap((m) => builds.map((b) => [keyOf(m, b), []])));
for (let run = 0; run < runs; run++) {
  for (const engines of mixes) {
    // (A first on even runs, B first on odd ones: neither always follows the other)
    for (const build of run % 2 ? [...builds].reverse() : builds) {
      const key = keyOf(engines, build);
      let row: ResetFailoverRound | { error: string };
      try {
        row = await withBuild(build, () => resetThenFailover({ engines }));
        console.log(`run ${run + 1}/${runs} ${builds.length > 1 ? `[${build}] ` : ''}${describeRound(row)}`);
      } catch (e) {
        row = { error: (e as Error).message };
        console.log(`run ${run + 1}/${runs} ${key}: failed: ${row.error}`);
      }
      results.get(key)!.push(row);
      if (values.out) appendFileSync(values.out, JSON.stringify({ run: run + 1, mix: key, build, at: new Date().toISOString(), ...row }) + '\n');
    }
  }
}

console.log(`\nfailover after a peer connection reset, ${runs} runs per mix (times from the leader kill to the next acknowledged operation):`);
for (const [key, rows] of results) {
  const done = rows.filter((r): r is ResetFailoverRound => !('error' in r));
  const served = done.map((r) => r.servedMs);
  const within = served.filter((ms) => ms !== null && ms < ISSUE_BUDGET_MS).length;
  const bad = done.filter((r) => r.lost > 0 || r.verdict.verdict !== 'linearizable').length;
  const loads = done.map((r) => r.loadAverage1m).sort((a, b) => a - b);
  console.log(
    `${key}: served again ${spread(served)}; within ${ISSUE_BUDGET_MS} ms in ${within} of ${done.length}; ` +
      `caught up ${spread(done.map((r) => r.catchUp.caughtUpMs))}, trimming resumed ${spread(done.map((r) => r.catchUp.trimmingResumedMs))} ` +
      `(status lines every ${FINE_STATUS_INTERVAL_MS} ms); ` +
      `timer lateness max ${Math.max(0, ...done.map((r) => r.timerLateMs))} ms; load average ${loads[0]}–${loads[loads.length - 1]} (median ${median(loads).toFixed(1)}); ` +
      `${rows.length - done.length} runs failed to set up; ${bad} with a lost write or a non-linearizable history`,
  );
}
// (a client socket or timer of the last round can keep the event loop alive after the summary)
process.exit(0);
