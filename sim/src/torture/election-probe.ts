// How elections fare when every message between the nodes takes longer (docs/reliability.md,
// "The election storm"): a 3-node cluster in the servers' configuration, no fault but a uniform
// extra delay on every node-to-node message for the whole window, then the fault-free tail.
// A native node that the machine starves sees its messages late in the same way; the simulator
// shows the same thing deterministically, with the real cores.
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
    // a 'delay' fault adds to every message to or from its node, so a link gets half from each end
    faults: [0, 1, 2].map((node) => ({ kind: 'delay' as const, at_us: 0, duration_us: window, node, extra_us: oneWayDelayUs / 2 })),
  };
}

/** The most a backed-off election delay is multiplied by (the experiment below). */
export const BACKOFF_CAP = 8;

/**
 * An experiment in the host, not the protocol: the engine's election timers as they would be if
 * the core backed off, each election delay multiplied by 2^k (at most BACKOFF_CAP) after k
 * elections in a row that won nothing, k going back to 0 when the node wins or hears a commit.
 * The cores are unchanged; only the delay of their `set_timer election` effects is rewritten
 * before the simulator schedules it. It tells whether the fix the probe points to would work.
 */
export function withElectionBackoff(engine: SyncEngine): SyncEngine {
  return {
    name: engine.name,
    target: engine.target,
    close: () => engine.close(),
    createNode(config) {
      const node = engine.createNode(config);
      let failed = 0;
      return {
        inspect: () => node.inspect(),
        stats: () => node.stats(),
        destroy: () => node.destroy(),
        step(event) {
          const effects = node.step(event);
          if (event.includes('"type":"commit_request"') || effects.includes('"kind":"leader"')) failed = 0;
          const elections = effects.split('"kind":"election"').length - 1;
          if (elections === 0 && failed === 0) return effects;
          if (elections > 0) failed += elections;
          const factor = Math.min(BACKOFF_CAP, 2 ** Math.max(0, failed - 1));
          return effects.replace(/\{"type":"set_timer","timer":"election","delay_us":(\d+)\}/g, (_m, d: string) => `{"type":"set_timer","timer":"election","delay_us":${Number(d) * factor}}`);
        },
      };
    },
  };
}

export function probeElections(engine: EngineName, commitIntervalUs: number, oneWayDelayUs: number, provide: (name: EngineName) => SyncEngine, options: { backoff?: boolean } = {}): ElectionProbe {
  const s = delayScenario(engine, commitIntervalUs, oneWayDelayUs);
  const run = runScenario(s, options.backoff ? (name) => withElectionBackoff(provide(name)) : provide, { trace: true });
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
