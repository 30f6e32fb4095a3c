// A torture run replayed in the Cluster view: the address `npm run torture` prints for a failure
// (c.torture) names the run; the engine worker runs it on the browser's engines exactly as the
// CLI did (same digest), checks its history with Porcupine, and answers with the nodes' state at
// any step. The student moves along the run, watches the faults come and go, and sees which
// operations Porcupine could not place.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { useReady } from '../app/ready.ts';
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { HistoryOp } from '@replicant/checker/lincheck';
import { EngineClient } from '../worker/engine-client.ts';
import type { TortureLive } from './cluster-protocol.ts';
import { NodeCard } from './NodeCard.tsx';

const noop = () => {};
const PLAY_INTERVAL_MS = 300;

function describeOp(op: HistoryOp): string {
  const call = op.op === 'put' ? `put ${op.key} ${op.value}` : `${op.op} ${op.key}`;
  const res = op.result === 'unknown' ? 'no answer (unknown)' : op.op === 'get' && op.result === 'ok' ? `"${op.value}"` : op.result;
  return `client ${op.client}: ${call} → ${res} (${(op.call_us / 1000).toFixed(1)}–${op.return_us === undefined ? '…' : (op.return_us / 1000).toFixed(1)} ms)`;
}

export default function TortureReplay({ state, update }: ViewProps) {
  const spec = state.cluster.torture;
  const [live, setLive] = useState<TortureLive | null>(null);
  const [loading, setLoading] = useState<string | null>('the engines');
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const client = useRef<EngineClient | null>(null);
  const busy = useRef(false);
  const wanted = useRef<number | null>(null);

  useEffect(() => {
    const c = new EngineClient();
    client.current = c;
    setLive(null);
    setError(null);
    setLoading('the engines');
    c.request({ type: 'cluster-torture', spec }, setLoading)
      .then((r) => r.type === 'torture-state' && setLive(r.torture))
      .catch((e: unknown) => client.current === c && setError(e instanceof Error ? e.message : String(e)))
      .finally(() => client.current === c && setLoading(null));
    return () => {
      client.current = null;
      c.close();
    };
  }, [spec]);

  // Moving along the run re-runs it in the worker up to the step: the newest wish wins.
  const goTo = useCallback((step: number) => {
    wanted.current = step;
    const pump = async () => {
      const c = client.current;
      if (!c || busy.current || wanted.current === null) return;
      const target = wanted.current;
      wanted.current = null;
      busy.current = true;
      try {
        const r = await c.request({ type: 'cluster-torture-goto', step: target });
        if (client.current === c && r.type === 'torture-state') setLive(r.torture);
      } catch (e) {
        if (client.current === c) setError(e instanceof Error ? e.message : String(e));
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

  const leave = () => update((s) => ({ ...s, cluster: { ...s.cluster, torture: '' } }));

  return (
    <div className="cluster-view torture-replay" data-testid="torture-replay">
      <h1>Replay a torture run</h1>
      <p className="lede">
        A seeded fault schedule from <span className="mono">npm run torture</span>, run here on the real engines (WebAssembly) in virtual time,
        exactly as the command line ran it; Porcupine checked its client history. Move along it one core step at a time.
      </p>
      <p className="mono" data-testid="torture-spec">
        npm run torture -- --engine {spec.split(':')[0]} --replay {spec.split(':')[1]?.split(';')[0]} · {spec}{' '}
        <button type="button" className="link" onClick={leave}>
          leave the replay
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
            <p>
              Seed {live.seed}: {live.summary}. {live.total_steps} core steps; digest <span className="mono">{live.digest}</span> (the command line
              prints the same).
            </p>
            {live.ok ? (
              <p>
                <strong>Passed:</strong> linearizable, no acknowledged write lost, the cluster served again after the faults.
              </p>
            ) : (
              <ul className="problems">
                {live.problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            )}
            <details>
              <summary>The fault schedule ({live.faults.length})</summary>
              <ol start={0}>
                {live.faults.map((f, i) => (
                  <li key={i}>{f}</li>
                ))}
              </ol>
            </details>
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
                <NodeCard key={id} id={id} raw={live.frame.inspect[id]!} view={v} onCrash={noop} onRestart={noop} readOnly />
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
                    <li key={`${live.frame.step}-${i}`}>
                      <span className="step-no">#{e.step}</span>
                      {e.headline === '' ? e.notes.join('; ') : e.headline}
                      {e.details.length > 0 && (
                        <ul>
                          {e.details.map((d, k) => (
                            <li key={k}>{d}</li>
                          ))}
                        </ul>
                      )}
                    </li>
                  ))}
              </ol>
            </div>
          </div>
        </>
      )}
    </div>
  );
}
