// What the engine worker does with the Cluster view's requests, apart from the worker itself so
// that it can be tested in Node: it owns one step session per chosen engine (in lock step, via
// the ClusterController), the recorded timeline the view rewinds along, and answers each request
// with the state the page draws. No UI code: the page renders, this computes.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { ClusterController } from './controller.ts';
import { openEngineSessions, type SimModule } from './sessions.ts';
import { historyFromTrace } from './history.ts';
import { explainEntry, type Explained } from './explain.ts';
import { TRACE_TAIL, type ClusterRequest, type ClusterResponse, type ClusterSetup, type ClusterSnapshot, type ClusterLive } from './cluster-protocol.ts';

type Reply = (r: ClusterResponse | { id: number; type: 'loading'; what: string } | { id: number; type: 'error'; message: string; live: null; cluster: ClusterLive | null }) => void;

/** The native servers' repair batch: with durability log the Cluster view runs as they do. */
export const DURABLE_REPAIR_BATCH = 256;
export const MAX_CLUSTER_NODES = 7;

// Trace entries are the sessions' own objects and never change: explain each once.
const explainedCache = new WeakMap<object, Explained>();
function explainCached(e: Parameters<typeof explainEntry>[0]): Explained {
  let x = explainedCache.get(e);
  if (!x) {
    x = explainEntry(e);
    explainedCache.set(e, x);
  }
  return x;
}

export class ClusterHost {
  private controller: ClusterController | null = null;
  private timeline: { choices: string[]; steps: number } = { choices: [], steps: 0 };

  constructor(
    private readonly loadEngine: (name: EngineName) => Promise<SyncEngine>,
    private readonly loadSim: () => Promise<SimModule>,
  ) {}

  /** Handles one request; `reply` gets its loading notes, then exactly one answer or error. */
  async handle(m: ClusterRequest, reply: Reply): Promise<void> {
    try {
      let replayError: string | undefined;
      switch (m.type) {
        case 'cluster-open':
          replayError = await this.open(m, (what) => reply({ id: m.id, type: 'loading', what }));
          break;
        case 'cluster-act': {
          const c = this.current();
          c.apply(m.action);
          this.timeline = { choices: c.sessions[0]!.session.choices(), steps: c.step };
          break;
        }
        case 'cluster-goto':
          this.goTo(m.step);
          break;
        case 'cluster-goto-by':
          this.goTo(this.current().step + m.delta);
          break;
        case 'cluster-history': {
          const c = this.current();
          reply({ id: m.id, type: 'cluster-history', history: historyFromTrace(c.sessions[0]!.session.trace()), step: c.step });
          return;
        }
        default:
          throw new Error(`unknown request ${(m as { type?: unknown }).type}`);
      }
      reply({ id: m.id, type: 'cluster-state', state: { ...this.state(), ...(replayError ? { replay_error: replayError } : {}) } });
    } catch (e) {
      let state: ClusterLive | null = null;
      try {
        state = this.controller ? this.state() : null;
      } catch {
        // the state itself cannot be read: the error says why
      }
      reply({ id: m.id, type: 'error', message: e instanceof Error ? e.message : String(e), live: null, cluster: state });
    }
  }

  private current(): ClusterController {
    if (!this.controller) throw new Error('no cluster is open');
    return this.controller;
  }

  private goTo(step: number): void {
    this.current().load(this.timeline.choices, Math.max(0, Math.min(step, this.timeline.steps)));
  }

  /** Returns why the setup's choices could not be replayed, if they could not. */
  private async open(m: ClusterSetup, loading: (what: string) => void): Promise<string | undefined> {
    this.controller = null;
    this.timeline = { choices: [], steps: 0 };
    if (m.engines.length === 0) throw new Error('no engine chosen');
    if (!Number.isInteger(m.nodes) || m.nodes < 1 || m.nodes > MAX_CLUSTER_NODES) throw new Error(`a cluster has 1..${MAX_CLUSTER_NODES} nodes: ${m.nodes}`);
    if (m.durability !== 'none' && m.durability !== 'log') throw new Error(`durability is none or log: ${String(m.durability)}`);
    const durable = m.durability === 'log';
    const sessions = await openEngineSessions(
      m.engines,
      m.nodes,
      { seed: m.seed, ...(durable ? { durability: 'log' as const, repair_batch: DURABLE_REPAIR_BATCH } : {}) },
      { engine: this.loadEngine, sim: this.loadSim },
      loading,
    );
    const c = new ClusterController(sessions, m.nodes);
    let replayError: string | undefined;
    let total = 0;
    try {
      // Step 0 means "the last recorded step" (booting alone takes a step per node).
      total = m.choices.length ? c.load(m.choices, m.step === 0 ? Number.MAX_SAFE_INTEGER : m.step) : 0;
    } catch (e) {
      replayError = e instanceof Error ? e.message : String(e);
      c.load([], 0);
    }
    this.controller = c;
    const step = c.step;
    this.timeline = replayError === undefined && total > step ? { choices: m.choices, steps: total } : { choices: c.sessions[0]!.session.choices(), steps: step };
    return replayError;
  }

  private state(): ClusterLive {
    const { trace, ...rest } = this.current().snapshot();
    const snapshot: ClusterSnapshot = { ...rest, explained: trace.slice(-TRACE_TAIL).map(explainCached), trace_length: trace.length };
    return { snapshot, timeline: { choices: this.timeline.choices.slice(), steps: this.timeline.steps } };
  }
}
