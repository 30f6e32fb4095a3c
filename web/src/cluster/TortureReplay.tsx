// A torture run in the Cluster view: started from the control above it, or from the address
// `npm run torture` prints for a failure (c.torture names the run). The engine worker runs it on
// the browser's engines exactly as the CLI does (same digest), checks its history with
// Porcupine, and answers with the nodes' state at any step. The student reads what the seed
// drew and what the checks found, moves along the run, and sees which operations Porcupine
// could not place.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { useReady } from '../app/ready.ts';
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { HistoryOp } from '@replicant/checker/lincheck';
import { parseReplaySpec, replayCommand } from '@replicant/sim/torture/replay-spec';
import { EngineClient } from '../worker/engine-client.ts';
import type { TortureLive } from './cluster-protocol.ts';
import { NodeCard } from './NodeCard.tsx';
import { EventItem } from './EventItem.tsx';
import { describeOperation } from './history.ts';
import { TortureControl } from './TortureControl.tsx';
import { choiceOf, durabilityOf } from './torture-form.ts';
import { drawnText, durabilityText, verdictText } from './torture-story.ts';

const noop = () => {};
const PLAY_INTERVAL_MS = 300;

function describeOp(op: HistoryOp): string {
  return `client ${op.client}: ${describeOperation(op)} (${(op.call_us / 1000).toFixed(1)}–${op.return_us === undefined ? '…' : (op.return_us / 1000).toFixed(1)} ms)`;
}

export default function TortureReplay({ state, update }: ViewProps) {
  const spec = state.cluster.torture;
  const [live, setLive] = useState<TortureLive | null>(null);
  const [loading, setLoading] = useState<string | null>('the engines');
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const client = useRef<EngineClient | null>(null);
  // One worker for the view's life (its engines stay loaded from run to run); answers for an
  // earlier run than the one asked for last are not drawn.
  const generation = useRef(0);
  const busy = useRef(false);
  const wanted = useRef<number | null>(null);

  useEffect(() => {
    const c = new EngineClient();
    client.current = c;
    return () => {
      client.current = null;
      c.close();
    };
  }, []);

  useEffect(() => {
    const c = client.current;
    if (!c) return;
    const gen = ++generation.current;
    const current = () => client.current === c && generation.current === gen;
    wanted.current = null;
    setPlaying(false);
    setLive(null);
    setError(null);
    setLoading('the engines');
    c.request({ type: 'cluster-torture', spec }, (what) => current() && setLoading(what))
      .then((r) => current() && r.type === 'torture-state' && setLive(r.torture))
      .catch((e: unknown) => current() && setError(e instanceof Error ? e.message : String(e)))
      .finally(() => current() && setLoading(null));
  }, [spec]);

  // Moving along the run re-runs it in the worker up to the step: the newest wish wins.
  const goTo = useCallback((step: number) => {
    wanted.current = step;
    const pump = async () => {
      const c = client.current;
      if (!c || busy.current || wanted.current === null) return;
      const target = wanted.current;
      const gen = generation.current;
      const current = () => client.current === c && generation.current === gen;
      wanted.current = null;
      busy.current = true;
      try {
        const r = await c.request({ type: 'cluster-torture-goto', step: target });
        if (current() && r.type === 'torture-state') setLive(r.torture);
      } catch (e) {
        if (current()) setError(e instanceof Error ? e.message : String(e));
      } finally {
        busy.current = false;
      }
      void pump();
    };
    void pump();
  }, []);

  const step = live?.frame.step ?? 0;
  const total = live?.total_steps ?? 0;
  const liveRef = useRef(live);
  liveRef.current = live;
  const goBy = useCallback((d: number) => liveRef.current && goTo(Math.max(1, Math.min(liveRef.current.total_steps, (wanted.current ?? liveRef.current.frame.step) + d))), [goTo]);

  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => {
      const l = liveRef.current;
      if (!l || busy.current) return;
      if (l.frame.step >= l.total_steps) return setPlaying(false);
      goTo(l.frame.step + 1);
    }, PLAY_INTERVAL_MS);
    return () => clearInterval(t);
  }, [playing, goTo]);

  const shortcuts: Shortcut[] = [
    { key: 'ArrowLeft', label: 'back one core step', run: () => goBy(-1) },
    { key: 'ArrowRight', label: 'forward one core step', run: () => goBy(1) },
    { key: ' ', label: 'play / pause the replay', run: () => setPlaying((p) => !p) },
  ];
  useViewShortcuts(shortcuts);
  useReady('cluster', live !== null || error !== null);

  // Each run started here, and leaving, is a history entry: Back returns to the run before.
  const open = (next: string) => update((s) => ({ ...s, cluster: { ...s.cluster, torture: next } }), { history: 'entry' });
  const replay = parseReplaySpec(spec);

  return (
    <div className="cluster-view torture-replay" data-testid="torture-replay">
      <h1>A torture run</h1>
      <p className="lede">
        A seeded fault schedule, run here on the real engines (WebAssembly) in virtual time, exactly as <span className="mono">npm run torture</span>{' '}
        runs it; Porcupine then checks the clients’ history. Move along it one core step at a time.
      </p>
      <TortureControl key={spec} initial={choiceOf(spec)} current={spec} start={open} />
      <p className="mono" data-testid="torture-spec">
        {replayCommand(replay)} · {spec}{' '}
        <button type="button" className="link" onClick={() => open('')}>
          leave the torture run
        </button>
      </p>
      {loading && (
        <p className="status" role="status">
          <span className="spinner" aria-hidden="true" /> Loading {loading}…
        </p>
      )}
      {error && (
        <p className="problems" role="alert" data-testid="torture-error">
          The run cannot be replayed: {error}.
        </p>
      )}
      {live && (
        <>
          <section data-testid="torture-verdict" data-ok={live.ok} data-verdict={live.verdict.verdict}>
            <h2>What the seed drew</h2>
            <p data-testid="torture-drawn">{drawnText(live)}</p>
            <p>Its faults, in the order they start:</p>
            <ul className="torture-faults" data-testid="torture-faults">
              {live.faults.map((f) => (
                <li key={f.index} data-kind={f.kind}>
                  {f.text} <span className="note mono" title="its place in the seed's list: what a shrunk run's keep=… names">(fault #{f.index})</span>
                </li>
              ))}
            </ul>
            <h2>What the checker found</h2>
            <p className={live.ok ? undefined : 'error-text'} data-testid="torture-found">
              <strong>{live.ok ? 'Passed.' : 'Failed.'}</strong> {verdictText(live)}
            </p>
            {!live.ok && (
              <ul className="problems">
                {live.problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            )}
            <p className="note" data-testid="torture-durability-note">
              {durabilityText(live, durabilityOf(replay))}
            </p>
            <p className="note">
              {live.total_steps} core steps; trace digest <span className="mono" data-testid="torture-digest">{live.digest}</span> (the command line prints the same
              digest for this run).
            </p>
          </section>
          <div className="timeline">
            <button type="button" onClick={() => goBy(-1)} disabled={step <= 1} aria-label="back one step">
              ◀
            </button>
            <input type="range" min={1} max={total} value={step} onChange={(e) => goTo(Number(e.target.value))} aria-label="replay: core step" data-testid="torture-timeline" />
            <button type="button" onClick={() => goBy(1)} disabled={step >= total} aria-label="forward one step">
              ▶
            </button>
            <button type="button" onClick={() => setPlaying((p) => !p)} data-testid="torture-play">
              {playing ? 'Pause' : 'Play'}
            </button>
            <span className="mono" data-testid="torture-step">
              step {step}/{total} · t = {(live.frame.time_us / 1000).toFixed(1)} ms
            </span>
          </div>
          <p data-testid="torture-active-faults">
            {live.frame.active_faults.length === 0 ? 'No fault in force at this moment.' : `In force now: ${live.frame.active_faults.join('; ')}.`}
          </p>
          <div className="cluster-layout">
            <div className="nodes">
              {live.frame.views.map((v, id) => (
                <NodeCard key={id} id={id} raw={live.frame.inspect[id]!} view={v} onCrash={noop} onRestart={noop} readOnly durabilityNotes={false} />
              ))}
              <p className="note">Engines: {live.engines.map((e, i) => `n${i} ${languageOf(e)}`).join(', ')}.</p>
            </div>
            <div>
              <h2>Client history (Porcupine: {live.verdict.verdict === 'violation' ? 'not linearizable' : live.verdict.verdict})</h2>
              <ol className="history" start={0} data-testid="torture-history">
                {live.history.map((op, i) => {
                  const suspect = live.verdict.suspect_operations.includes(i);
                  return (
                    <li key={i} className={suspect ? 'violation' : undefined} data-suspect={suspect ? 'true' : undefined}>
                      {describeOp(op)}
                      {suspect && <strong> — cannot be placed</strong>}
                    </li>
                  );
                })}
              </ol>
              <h2>What happened (up to this step)</h2>
              <ol className="event-log" data-testid="torture-log" reversed>
                {live.frame.explained
                  .slice()
                  .reverse()
                  .map((e, i) => (
                    <EventItem key={`${live.frame.step}-${i}`} e={e} />
                  ))}
              </ol>
            </div>
          </div>
        </>
      )}
    </div>
  );
}
