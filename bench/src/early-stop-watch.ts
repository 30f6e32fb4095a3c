// Watches a running probe's interval logs (YCSB writes one interval a second) and stops YCSB
// once the window's p99 is over the SLO for certain (early-stop.ts decides; this module only
// reads the files as they grow and sends the signal).
import { missedForCertain, type EarlyStopEvidence, type ProbePlan } from './early-stop.ts';
import { readLogs, type IntervalLog } from './hdr.ts';

export interface EarlyStopWatch {
  /** YCSB's pid, once spawned: the process the watch stops. */
  attach(pid: number): void;
  /** Ends the watch; the evidence if it stopped the probe. */
  stop(): EarlyStopEvidence | null;
}

function readGrowingLogs(dir: string, names: string[]): IntervalLog[] {
  try {
    return readLogs(dir, names);
  } catch {
    // a file caught while YCSB creates it: the next tick reads it whole
    return [];
  }
}

export function watchForEarlyStop(dir: string, names: string[], plan: ProbePlan, every_ms = 1000): EarlyStopWatch {
  let pid: number | null = null;
  let evidence: EarlyStopEvidence | null = null;
  const timer = setInterval(() => {
    if (pid === null || evidence) return;
    evidence = missedForCertain(plan, readGrowingLogs(dir, names));
    if (!evidence) return;
    clearInterval(timer);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // YCSB ended on its own meanwhile: its window is whole, and the verdict the same
    }
  }, every_ms);
  return {
    attach: (p) => (pid = p),
    stop: () => (clearInterval(timer), evidence),
  };
}
