// How elections fare when every message between the nodes takes longer (docs/reliability.md,
// "The election storm"): a 3-node cluster in the servers' configuration, no fault but a uniform
// extra delay on every node-to-node message for the whole window, then the fault-free tail.
// A native node that the machine starves sees its messages late in the same way; the simulator
// shows the same thing deterministically, with the real cores. Before the cores' election
// backoff (docs/protocol.md, "Election backoff") no election completed from a one-way delay of
// one commit interval; the probe is how that was found and how the fix is measured.
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';
import { drawScenario, type Scenario } from './scenario.ts';
import { runScenario } from './run.ts';

export interface ElectionProbe {
  engine: EngineName;
  commit_interval_us: number;
  one_way_delay_us: number;
  window_us: number;
  /** elections started (every node's `election` traces) inside the window */
  elections: number;
  /** elections won inside the window */
  leaders: number;
  /** client operations answered inside the window */
  answered: number;
  /** after the window: how long until the probe client read every key (null: never) */
  recovered_after_us: number | null;
}

/** The scenario: seed 5's workload, 100 commit intervals of delay on every link, no other fault. */
export function delayScenario(engine: EngineName, commitIntervalUs: number, oneWayDelayUs: number): Scenario {
  const window = 100 * commitIntervalUs;
  return {
    ...drawScenario(5, { engine }),
    engines: [engine, engine, engine],
    commit_interval_us: commitIntervalUs,
    check_quorum: true,
    repair_batch: 256,
    election_batch: 256,
    clients: 2,
    keys: ['k0', 'k1'],
    ops_per_client: 30,
    fault_window_us: window,
    // the drawn scenario's clocks are the torture's 10 ms interval's; scale them with this one
    tail_us: 40 * commitIntervalUs,
    liveness_bound_us: 100 * commitIntervalUs,
    client_timeout_us: 10 * commitIntervalUs,
    // a 'delay' fault adds to every message to or from its node, so a link gets half from each end
    faults: [0, 1, 2].map((node) => ({ kind: 'delay' as const, at_us: 0, duration_us: window, node, extra_us: oneWayDelayUs / 2 })),
  };
}

export function probeElections(engine: EngineName, commitIntervalUs: number, oneWayDelayUs: number, provide: (name: EngineName) => SyncEngine): ElectionProbe {
  const s = delayScenario(engine, commitIntervalUs, oneWayDelayUs);
  const run = runScenario(s, provide, { trace: true });
  let elections = 0;
  let leaders = 0;
  for (const line of run.trace ?? []) {
    if (Number(line.slice(0, line.indexOf(' '))) >= s.fault_window_us) break;
    elections += line.split('"kind":"election"').length - 1;
    leaders += line.split('"kind":"leader"').length - 1;
  }
  const answered = run.history.filter((h) => h.return_us !== undefined && h.result !== 'unknown' && h.return_us < s.fault_window_us).length;
  return { engine, commit_interval_us: commitIntervalUs, one_way_delay_us: oneWayDelayUs, window_us: s.fault_window_us, elections, leaders, answered, recovered_after_us: run.recovered_after_us };
}
