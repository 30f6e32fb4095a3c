// The engine worker's torture replays: the run a failing `npm run torture` printed (its lab
// address names it, sim/src/torture/replay-spec.ts), run here on the browser's engines in virtual
// time exactly as the CLI runs it, its history checked by Porcupine (wasm, in this worker), and
// then played step by step: the nodes' state at step K is read by running the scenario again up
// to its K-th core step (a run is a pure function of its scenario). No UI code.
import type { EngineName, SyncEngine, SyncNode } from '@replicant/engines/loader/engine';
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { Checker } from '@replicant/checker/lincheck';
import { parseReplaySpec, replayScenario, formatReplaySpec } from '@replicant/sim/torture/replay-spec';
import { describeFault, type Scenario } from '@replicant/sim/torture/scenario';
import { runScenario } from '@replicant/sim/torture/run';
import { judge } from '@replicant/sim/torture/judge';
import { explainEntry } from './explain.ts';
import { readInspect } from './inspect.ts';
import type { TortureFault, TortureFrame, TortureLive, TortureRequest, TortureResponse } from './cluster-protocol.ts';

type Reply = (r: TortureResponse | { id: number; type: 'loading'; what: string } | { id: number; type: 'error'; message: string; live: null; torture: TortureLive | null }) => void;

/** Entries of the run's log shown before the current step. */
export const FRAME_LOG = 120;

interface Line {
  t_us: number;
  /** the core step this line is (1-based), or the step before it for a fault line */
  step: number;
  node: number;
  event: string;
  effects: string;
  notes: string[];
}

class Stop extends Error {}

export class TortureHost {
  private run: { scenario: Scenario; lines: Line[]; engines: Map<EngineName, SyncEngine>; live: Omit<TortureLive, 'frame'> } | null = null;
  private checker: Promise<Checker> | null = null;

  constructor(
    private readonly loadEngine: (name: EngineName) => Promise<SyncEngine>,
    private readonly loadChecker: () => Promise<Checker>,
  ) {}

  async handle(m: TortureRequest, reply: Reply): Promise<void> {
    try {
      if (m.type === 'cluster-torture') await this.open(m.spec, (what) => reply({ id: m.id, type: 'loading', what }));
      const r = this.current();
      const step = m.type === 'cluster-torture' ? r.live.total_steps : Math.max(1, Math.min(m.step, r.live.total_steps));
      reply({ id: m.id, type: 'torture-state', torture: { ...r.live, frame: this.frame(step) } });
    } catch (e) {
      reply({ id: m.id, type: 'error', message: e instanceof Error ? e.message : String(e), live: null, torture: null });
    }
  }

  private current() {
    if (!this.run) throw new Error('no torture run is open');
    return this.run;
  }

  private async open(spec: string, loading: (what: string) => void): Promise<void> {
    this.run = null;
    const replay = parseReplaySpec(spec);
    const scenario = replayScenario(replay);
    const engines = new Map<EngineName, SyncEngine>();
    for (const e of new Set(scenario.engines)) {
      loading(`the ${languageOf(e)} engine (WebAssembly)`);
      engines.set(e, await this.loadEngine(e));
    }
    loading('Porcupine (WebAssembly)');
    this.checker ??= this.loadChecker();
    const checker = await this.checker.catch((e: unknown) => {
      this.checker = null;
      throw e;
    });
    loading('the run');
    const run = runScenario(scenario, (name) => engines.get(name)!, { trace: true });
    const verdict = checker.check(run.history).verdict;
    const judgement = judge(scenario, run, verdict);
    this.run = {
      scenario,
      lines: readLines(run.trace ?? [], scenario),
      engines,
      live: {
        spec: formatReplaySpec(replay),
        seed: scenario.seed,
        engines: scenario.engines,
        draw: { clients: scenario.clients, keys: scenario.keys, ops_per_client: scenario.ops_per_client, fault_window_us: scenario.fault_window_us, tail_us: scenario.tail_us },
        faults: faultsInTimeOrder(scenario),
        history: run.history,
        verdict,
        ok: judgement.ok,
        problems: judgement.problems,
        total_steps: run.steps,
        digest: run.digest,
      },
    };
  }

  /** The nodes at core step `step`: the scenario run again, stopped right after that step. */
  private frame(step: number): TortureFrame {
    const r = this.current();
    const live = new Map<number, SyncNode>();
    let count = 0;
    let inspect: string[] | null = null;
    const n = r.scenario.engines.length;
    const read = () => Array.from({ length: n }, (_, id) => live.get(id)?.inspect() ?? 'null');
    const wrap = (engine: SyncEngine): SyncEngine => ({
      name: engine.name,
      target: engine.target,
      close: () => {},
      createNode(config) {
        const node = engine.createNode(config);
        const w: SyncNode = {
          step(event) {
            const out = node.step(event);
            if (++count === step) {
              inspect = read();
              throw new Stop();
            }
            return out;
          },
          inspect: () => node.inspect(),
          stats: () => node.stats(),
          destroy() {
            if (live.get(config.id) === w) live.delete(config.id);
            node.destroy();
          },
        };
        live.set(config.id, w);
        return w;
      },
    });
    try {
      runScenario(r.scenario, (name) => wrap(r.engines.get(name)!));
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
    } finally {
      for (const w of [...live.values()]) w.destroy();
    }
    const states = inspect ?? Array.from({ length: n }, () => 'null');
    const upTo = r.lines.filter((l) => l.step <= step);
    const last = upTo[upTo.length - 1];
    return {
      step,
      time_us: last?.t_us ?? 0,
      inspect: states,
      views: states.map(readInspect),
      explained: upTo.slice(-FRAME_LOG).map(explainEntry),
      active_faults: activeFaults(r.scenario, last?.t_us ?? 0),
    };
  }
}

/** The run's trace lines ("T nI EVENT\nEFFECTS", "T fault+ JSON", "T fault- I") as log entries. */
function readLines(trace: readonly string[], s: Scenario): Line[] {
  const out: Line[] = [];
  let step = 0;
  for (const text of trace) {
    const nl = text.indexOf('\n');
    const head = nl < 0 ? text : text.slice(0, nl);
    const [t, who, ...rest] = head.split(' ');
    const t_us = Number(t);
    if (who === 'fault+' || who === 'fault-') {
      const f = who === 'fault+' ? (JSON.parse(rest.join(' ')) as Scenario['faults'][number]) : s.faults[Number(rest[0])];
      out.push({ t_us, step, node: 0, event: '', effects: '', notes: [`${who === 'fault+' ? 'fault starts' : 'fault ends'}: ${f ? describeFault(f) : rest.join(' ')}`] });
      continue;
    }
    step++;
    out.push({ t_us, step, node: Number(who!.slice(1)), event: rest.join(' '), effects: nl < 0 ? '' : text.slice(nl + 1), notes: [] });
  }
  return out;
}

function activeFaults(s: Scenario, t_us: number): string[] {
  return s.faults.filter((f) => f.at_us <= t_us && t_us < f.at_us + f.duration_us).map(describeFault);
}

/** The seed's faults as they start (the draw lists TCP resets after the others). */
function faultsInTimeOrder(s: Scenario): TortureFault[] {
  return s.faults.map((f, index) => ({ index, kind: f.kind, at_us: f.at_us, text: describeFault(f) })).sort((a, b) => a.at_us - b.at_us || a.index - b.index);
}
