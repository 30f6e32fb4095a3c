// The Cluster view (students): the real engines, compiled to WebAssembly, driven one event at
// a time by the simulator's step session. Every message, timer, crash and partition is the
// student's choice; every choice is recorded, so the URL reproduces the screen and the
// timeline rewinds by re-running from the seed.
import { Suspense, lazy, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { Knob } from '../app/Knob.tsx';
import { TOP_FIELDS } from '../state/app-state.ts';
import { CLUSTER_FIELDS } from './cluster-fields.ts';
import { ENGINE_NAMES, languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import { BROWSER_ENGINES, enginesFor } from '../engines.ts';
import type { Action } from './controller.ts';
import { EventItem } from './EventItem.tsx';
import { NodeCard } from './NodeCard.tsx';
import { Topology, messagePositions, nodePosition, type Flight } from './Topology.tsx';
import { ClientCommandForm, LinkControls, PendingList } from './Controls.tsx';
import { messageLabel } from './explain.ts';
import { useReady } from '../app/ready.ts';
import { LinearizabilityPanel } from './LinearizabilityPanel.tsx';
import { LoadStatus, type Loaded } from './LoadStatus.tsx';
import { ComparisonNote } from './ComparisonNote.tsx';
import { TortureControl } from './TortureControl.tsx';
import { EngineClient, EngineRequestError, type EngineRequestBody } from '../worker/engine-client.ts';
import type { ClusterLive, ClusterSnapshot } from './cluster-protocol.ts';
import type { SessionHistory } from './history.ts';

const STEP_INTERVAL_MS = 650;


const TortureReplay = lazy(() => import('./TortureReplay.tsx'));

/** A torture run (c.torture: from the control or a printed address) opens its replay; otherwise the step-by-step cluster. */
export default function ClusterView(props: ViewProps) {
  if (props.state.cluster.torture !== '') {
    return (
      <Suspense fallback={<p role="status">Loading the replay…</p>}>
        <TortureReplay {...props} />
      </Suspense>
    );
  }
  return <StepCluster {...props} />;
}

function StepCluster({ state, update }: ViewProps) {
  const { engine, nodes: nodesText, choices: urlChoices, step: urlStep, speed, durability } = state.cluster;
  const nodes = Number(nodesText);
  const seed = state.seed;
  const engines = useMemo(() => enginesFor(engine), [engine]);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading', what: 'the simulator' });
  const [snap, setSnap] = useState<ClusterSnapshot | null>(null);
  const [timeline, setTimeline] = useState<ClusterLive['timeline']>({ choices: [], steps: 0 });
  const [actionError, setActionError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [flights, setFlights] = useState<Flight[]>([]);
  // The engines and their step sessions live in the engine worker; the page draws its answers.
  const client = useRef<EngineClient | null>(null);
  // Answers to requests made for an earlier cluster (engine, size, seed) are not drawn.
  const generation = useRef(0);
  const inFlight = useRef(0);
  const flightKey = useRef(0);
  // The URL's step list is read when a cluster is built; later edits come from this view.
  const initialUrl = useRef({ choices: urlChoices, step: urlStep });

  useEffect(
    () => () => {
      client.current?.close();
      client.current = null;
    },
    [],
  );

  const show = useCallback((s: ClusterLive) => {
    setSnap(s.snapshot);
    setTimeline(s.timeline);
  }, []);

  /** Sends a request for the current cluster; its answer is drawn unless a newer cluster was built. */
  const ask = useCallback(
    async (body: EngineRequestBody): Promise<boolean> => {
      const c = client.current;
      if (!c) return false;
      const gen = generation.current;
      inFlight.current++;
      try {
        const r = await c.request(body);
        if (gen !== generation.current) return false;
        if (r.type === 'cluster-state') show(r.state);
        return true;
      } catch (e) {
        if (gen !== generation.current) return false;
        if (e instanceof EngineRequestError && e.response?.cluster) show(e.response.cluster);
        setActionError(e instanceof Error ? e.message : String(e));
        return false;
      } finally {
        inFlight.current--;
      }
    },
    [show],
  );

  // Build the sessions whenever the engine, the cluster size, the durability or the seed changes.
  useEffect(() => {
    const gen = ++generation.current;
    setPlaying(false);
    setSnap(null);
    setActionError(null);
    const unavailable = engine !== 'all' && !BROWSER_ENGINES.includes(engine as EngineName);
    if (unavailable) {
      setLoaded({ state: 'failed', message: `the ${languageOf(engine as EngineName)} engine is not part of this build (available: ${BROWSER_ENGINES.map((e) => languageOf(e)).join(', ')})` });
      return;
    }
    setLoaded({ state: 'loading', what: 'the simulator' });
    client.current ??= new EngineClient();
    const { choices, step } = initialUrl.current;
    initialUrl.current = { choices: [], step: 0 };
    client.current
      .request({ type: 'cluster-open', engines, nodes, seed, durability, choices, step }, (what) => gen === generation.current && setLoaded({ state: 'loading', what }))
      .then((r) => {
        if (gen !== generation.current || r.type !== 'cluster-state') return;
        if (r.state.replay_error) setActionError(`The recorded steps in this address could not be replayed (${r.state.replay_error}); starting from the beginning.`);
        show(r.state);
        setLoaded({ state: 'ready' });
      })
      .catch((e: unknown) => gen === generation.current && setLoaded({ state: 'failed', message: e instanceof Error ? e.message : String(e) }));
  }, [engine, engines, nodes, seed, durability, show]);

  // Write the recorded steps into the URL (debounced: a playing cluster steps several times a second).
  useEffect(() => {
    if (!snap) return;
    const t = setTimeout(() => {
      update((s) => ({ ...s, cluster: { ...s.cluster, choices: timeline.choices, step: snap.step === timeline.steps ? 0 : snap.step } }));
    }, 400);
    return () => clearTimeout(t);
  }, [snap, timeline, update]);

  const act = useCallback(
    (a: Action) => {
      if (!snap) return;
      setActionError(null);
      // A delivered message flies from its place on the link to its receiver.
      const target = a.kind === 'deliver' ? snap.pending.find((p) => p.id === a.id) : a.kind === 'next' ? snap.pending[0] : undefined;
      void ask({ type: 'cluster-act', action: a }).then((ok) => {
        if (!ok || target?.kind !== 'message') return;
        const from = messagePositions(snap.pending, nodes).get(target.id)!;
        const label = messageLabel(JSON.parse(target.json));
        const key = ++flightKey.current;
        setFlights((f) => [...f.slice(-8), { key, label: label.text, kind: label.kind, from, to: nodePosition(target.to, nodes), duration_ms: 420 / Number(speed) }]);
      });
    },
    [snap, nodes, speed, ask],
  );

  const goTo = useCallback((step: number) => void ask({ type: 'cluster-goto', step }), [ask]);
  // Relative to the worker's own step: key presses can come faster than React draws.
  const goBy = useCallback((delta: number) => void ask({ type: 'cluster-goto-by', delta }), [ask]);

  // Stable callbacks for memoised children: they call whatever act is current.
  const actRef = useRef(act);
  actRef.current = act;

  // Play: one event per tick, at the chosen speed (a tick is skipped while the worker is busy).
  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => inFlight.current === 0 && actRef.current({ kind: 'next' }), STEP_INTERVAL_MS / Number(speed));
    return () => clearInterval(t);
  }, [playing, speed]);

  const history = useCallback(async (): Promise<{ history: SessionHistory; step: number }> => {
    const c = client.current;
    if (!c) throw new Error('the cluster is not running');
    const r = await c.request({ type: 'cluster-history' });
    if (r.type !== 'cluster-history') throw new Error(`unexpected answer ${r.type}`);
    return { history: r.history, step: r.step };
  }, []);

  const onFlightDone = useCallback((key: number) => setFlights((f) => f.filter((x) => x.key !== key)), []);

  const shortcuts = useMemo<Shortcut[]>(
    () => [
      { key: 'n', label: 'carry out the next event (the one due first)', run: () => act({ kind: 'next' }) },
      { key: ' ', label: 'play / pause', run: () => setPlaying((p) => !p) },
      { key: 'ArrowLeft', label: 'back one step (rewind)', run: () => goBy(-1) },
      { key: 'ArrowRight', label: 'forward one step (redo)', run: () => goBy(1) },
      { key: 'h', label: 'heal every link', run: () => act({ kind: 'heal' }) },
    ],
    [act, goBy],
  );
  useViewShortcuts(shortcuts);

  const setCluster = <K extends keyof typeof CLUSTER_FIELDS>(k: K, v: (typeof state.cluster)[K]) =>
    update((s) => ({ ...s, cluster: { ...s.cluster, [k]: v, ...(k === 'engine' || k === 'nodes' || k === 'durability' ? { choices: [], step: 0 } : {}) } }));

  useReady('cluster', snap !== null);
  const explained = useMemo(() => (snap ? snap.explained.slice().reverse() : []), [snap]);
  const rewound = snap !== null && snap.step < timeline.steps;

  return (
    <div className="cluster-view">
      <h1>Step through MultiPaxos</h1>
      <p className="lede">
        Real engines compiled to WebAssembly, on a simulated network. Nothing happens until you choose: the next event, or click any
        message to deliver it, any timer to fire it.
      </p>
      <p className="note" data-testid="durability-sentence">
        {durability === 'none'
          ? 'Durability none (the paper’s design): nodes keep everything in memory, so a crashed node restarts empty, having forgotten what it promised and accepted — with restarts, two values can be chosen at one index.'
          : 'Durability log: a node writes its promise and accepted entries to disk before any message that reveals them leaves, so a restart from disk keeps them; a wiped node rejoins by state transfer (the leader sends it a snapshot).'}
      </p>
      <details className="legend" data-testid="cluster-legend">
        <summary>How to read it: phases, ballots 1.0 and 0.-, ≤3, +2, #4</summary>
        <ul>
          <li>
            Phases: <strong>prepare → promise</strong> (phase 1: a candidate collects promises from a majority and becomes leader),{' '}
            <strong>accept → accepted</strong> (phase 2: the leader puts a command in a log slot), <strong>commit</strong> (the
            leader’s heartbeat tells followers how far it has executed; it is the same message as the heartbeat).
          </li>
          <li>
            A ballot is written <span className="mono">round.leader</span>: <span className="mono">2.1</span> is round 2 led by n1.{' '}
            <span className="mono">0.-</span> is the ballot every node starts with: round 0, no leader yet.
          </li>
          <li>
            <span className="mono">#4</span> is log index 4; <span className="mono">≤3</span> means “has executed every index up to 3”;{' '}
            <span className="mono">+2</span> on a promise means it carries 2 log entries the new leader must take over.
          </li>
        </ul>
      </details>
      <section className="torture-start" aria-labelledby="torture-start-title">
        <h2 id="torture-start-title">Or watch a checker catch a bug: a torture run</h2>
        <p className="note">
          A seed draws a cluster, a client workload and a schedule of faults (crashes, partitions, lost and late messages); the engines
          run it in virtual time and Porcupine checks the clients’ history. Try the known violation, then the same seed with durability log.
        </p>
        <TortureControl
          initial={{ engine, seed_text: String(seed), durability }}
          current=""
          start={(spec) => update((s) => ({ ...s, cluster: { ...s.cluster, torture: spec } }), { history: 'entry' })}
        />
      </section>
      <div className="toolbar">
        <label className="knob">
          <span>Engine</span>
          <select value={engine} onChange={(e) => setCluster('engine', e.target.value as typeof engine)} data-testid="engine-select">
            {ENGINE_NAMES.map((e) => (
              <option key={e} value={e} disabled={!BROWSER_ENGINES.includes(e)}>
                {languageOf(e)}
                {BROWSER_ENGINES.includes(e) ? '' : ' (not in this build)'}
              </option>
            ))}
            <option value="all">all: {BROWSER_ENGINES.map((e) => languageOf(e)).join(', ')}, side by side</option>
          </select>
        </label>
        <Knob name="c.nodes" field={CLUSTER_FIELDS.nodes} value={state.cluster.nodes} onChange={(v) => setCluster('nodes', v)} />
        <Knob compact name="seed" field={TOP_FIELDS.seed} value={seed} onChange={(v) => update((s) => ({ ...s, seed: v, cluster: { ...s.cluster, choices: [], step: 0 } }))} />
        <Knob name="c.durability" field={CLUSTER_FIELDS.durability} value={durability} onChange={(v) => setCluster('durability', v)} />
        <Knob name="c.speed" field={CLUSTER_FIELDS.speed} value={speed} onChange={(v) => setCluster('speed', v)} />
        <button type="button" className="primary" disabled={!snap} onClick={() => act({ kind: 'next' })} data-testid="next-step" title="key n">
          Next event
        </button>
        <button type="button" disabled={!snap} onClick={() => setPlaying((p) => !p)} data-testid="play" title="Space">
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" disabled={!snap} onClick={() => goTo(0)} title="back to the start">
          Restart run
        </button>
      </div>
      <LoadStatus loaded={loaded} cannotRun="The cluster cannot run" failedTestId="cluster-error" actionError={actionError} />
      {snap && (
        <>
          {snap.comparison && <ComparisonNote comparison={snap.comparison} step={snap.step} />}
          <div className="timeline">
            <button type="button" onClick={() => goBy(-1)} disabled={snap.step === 0} aria-label="back one step">
              ◀
            </button>
            <input
              type="range"
              min={0}
              max={timeline.steps}
              value={snap.step}
              onChange={(e) => goTo(Number(e.target.value))}
              aria-label="timeline: step"
              data-testid="timeline"
            />
            <button type="button" onClick={() => goBy(1)} disabled={!rewound} aria-label="forward one step">
              ▶
            </button>
            <span className="mono" data-testid="step-counter" data-recorded={timeline.choices.length}>
              step {snap.step}/{timeline.steps} · t = {(snap.time_us / 1000).toFixed(1)} ms
            </span>
          </div>
          {rewound && <p className="note">Rewound: a new action here discards the {timeline.steps - snap.step} later steps.</p>}
          <div className="cluster-layout">
            <div>
              <Topology
                views={snap.views}
                pending={snap.pending}
                cuts={snap.cuts}
                time_us={snap.time_us}
                flights={flights}
                onFlightDone={onFlightDone}
                onDeliver={(id) => act({ kind: 'deliver', id })}
                onFire={(id) => act({ kind: 'fire', id })}
              />
              <div className="nodes">
                {snap.views.map((v, id) => (
                  <NodeCard
                    key={id}
                    id={id}
                    raw={snap.inspect[id]!}
                    view={v}
                    {...(durability === 'log' ? { disk: snap.disks[id]!, onRestartWiped: () => actRef.current({ kind: 'restart-wiped', node: id }) } : {})}
                    onCrash={() => actRef.current({ kind: 'crash', node: id })}
                    onRestart={() => actRef.current({ kind: 'restart', node: id })}
                  />
                ))}
              </div>
            </div>
            <div>
              <h2>Send a client command</h2>
              <ClientCommandForm nodes={snap.views.length} initialLine="put x 1" act={act} />
              <h2>Pending ({snap.pending.length})</h2>
              <PendingList snap={snap} act={act} />
              <h2>Links</h2>
              <LinkControls nodes={nodes} cuts={snap.cuts} act={act} />
              <LinearizabilityPanel history={history} />
              <h2>What happened</h2>
              <ol className="event-log" data-testid="event-log" reversed>
                {explained.map((e, i) => (
                  <EventItem key={snap.trace_length - i} e={e} />
                ))}
              </ol>
            </div>
          </div>
        </>
      )}
    </div>
  );
}
