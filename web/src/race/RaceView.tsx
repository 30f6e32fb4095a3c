// The Race (demos): four engines side by side under the same load while memory is squeezed
// step by step. Big type; → or Space squeezes, ← gives memory back. Each lane is simulated
// live, in the simulator's worker; the paper's published figure for the same memory stands
// under it.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { useReady } from '../app/ready.ts';
import { useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { Knob } from '../app/Knob.tsx';
import { defaultState } from '../state/app-state.ts';
import { RACE_FIELDS } from './race-fields.ts';
import { ENGINE_NAMES, languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import { PAPER } from '../paper/results.ts';
import { BROWSER_ENGINES } from '../engines.ts';
import { CancelledError, SimRunner } from '../simulation/runner.ts';
import { runSpec } from '../lab/lab-spec.ts';
import { seriesStyle } from '../theme/palette.ts';
import { SQUEEZE, laneOf, publishedAt, raceSentence, type Lane } from './race-model.ts';
import { useTween } from '../app/useTween.ts';

const SLO_MS = 20;
const RUN_SECONDS = 5;

type LaneState = { state: 'waiting' } | { state: 'running'; fraction: number } | { state: 'done'; lane: Lane; model: string } | { state: 'failed'; message: string };

export default function RaceView({ state, update }: ViewProps) {
  const { step, wl, rate } = state.race;
  const seed = state.seed;
  const squeeze = SQUEEZE[Math.min(step, SQUEEZE.length - 1)]!;
  const [lanes, setLanes] = useState<Record<string, LaneState>>({});
  // The last finished result of each lane, shown (dimmed) while the next step simulates, so the
  // board never blanks and the numbers move from the old value to the new one.
  const [lastDone, setLastDone] = useState<Record<string, { lane: Lane; gib: number }>>({});
  const cache = useRef(new Map<string, { lane: Lane; model: string }>());
  const runner = useRef<SimRunner | null>(null);
  useReady('race', true);

  useEffect(() => {
    runner.current = new SimRunner();
    return () => runner.current?.close();
  }, []);

  const engines = ENGINE_NAMES.filter((e) => BROWSER_ENGINES.includes(e));

  // Simulate each lane of this step, one after another (two cores are shared).
  useEffect(() => {
    let cancelled = false;
    const lab = { ...defaultState().lab, wl, rate, memunit: 'ratio' as const, ratio: squeeze.ratio, duration: RUN_SECONDS, fid: 'fast' as const };
    const keyOf = (e: EngineName) => `${e}|${squeeze.ratio}|${wl}|${rate}|${seed}`;
    setLanes(Object.fromEntries(engines.map((e) => [e, cache.current.has(keyOf(e)) ? { state: 'done', ...cache.current.get(keyOf(e))! } : { state: 'waiting' }])));
    setLastDone((d) => {
      const next = { ...d };
      for (const e of engines) if (cache.current.has(keyOf(e))) next[e] = { lane: cache.current.get(keyOf(e))!.lane, gib: squeeze.gib };
      return next;
    });
    (async () => {
      for (const e of engines) {
        if (cancelled || cache.current.has(keyOf(e))) continue;
        setLanes((l) => ({ ...l, [e]: { state: 'running', fraction: 0 } }));
        try {
          const { result } = await runner.current!.run(runSpec(lab, seed, e), (p) => !cancelled && setLanes((l) => ({ ...l, [e]: { state: 'running', fraction: p.fraction } })));
          const done = { lane: laneOf(e, result, SLO_MS), model: result.model_card_version };
          cache.current.set(keyOf(e), done);
          if (!cancelled) setLanes((l) => ({ ...l, [e]: { state: 'done', ...done } }));
          if (!cancelled) setLastDone((d) => ({ ...d, [e]: { lane: done.lane, gib: squeeze.gib } }));
        } catch (err) {
          if (cancelled || err instanceof CancelledError) return;
          setLanes((l) => ({ ...l, [e]: { state: 'failed', message: err instanceof Error ? err.message : String(err) } }));
        }
      }
    })();
    return () => {
      cancelled = true;
      runner.current?.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [squeeze.ratio, wl, rate, seed]);

  const go = (delta: number) => update((s) => ({ ...s, race: { ...s.race, step: Math.max(0, Math.min(SQUEEZE.length - 1, s.race.step + delta)) } }));
  const shortcuts = useMemo<Shortcut[]>(
    () => [
      { key: 'ArrowRight', label: 'squeeze memory one step', run: () => go(1) },
      { key: ' ', label: 'squeeze memory one step', run: () => go(1) },
      { key: 'ArrowLeft', label: 'give memory back one step', run: () => go(-1) },
      { key: 'Home', label: 'back to 32 GiB', run: () => go(-SQUEEZE.length) },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  useViewShortcuts(shortcuts);

  const done = engines.map((e) => lanes[e]).filter((l): l is Extract<LaneState, { state: 'done' }> => l?.state === 'done');
  const model = done[0]?.model;

  return (
    <div className="race-view">
      <div className="race-head">
        <h1>
          {squeeze.gib} GiB <span className="note">of memory per node · a {4} GiB dataset · workload {wl}</span>
        </h1>
        <div className="race-steps" role="group" aria-label="Memory step">
          {SQUEEZE.map((s, i) => (
            <button key={s.gib} type="button" aria-pressed={i === step} onClick={() => update((st) => ({ ...st, race: { ...st.race, step: i } }))}>
              {s.gib} GiB
            </button>
          ))}
          <span className="note">
            <kbd>→</kbd> squeeze · <kbd>←</kbd> back
          </span>
        </div>
      </div>
      <div className="race-board" data-testid="race-board">
        {ENGINE_NAMES.map((e) => {
          const l = lanes[e];
          const pub = publishedAt(PAPER.rows, e, squeeze.gib, wl);
          const colour = seriesStyle(languageOf(e)).colour;
          const available = engines.includes(e);
          return (
            <section key={e} className="lane" style={{ borderTopColor: colour }} data-testid={`lane-${e}`} aria-label={languageOf(e)}>
              <h2 style={{ color: colour }}>{languageOf(e)}</h2>
              {available && <LaneFigures colour={colour} state={l} last={lastDone[e]} />}
              {!available && <p className="mid note">not in this build</p>}
              <p className="published" data-testid={`published-${e}`}>
                {pub ? (
                  <>
                    Paper (AWS): max <strong>{pub.qualifier === 'upper_bound' ? '< ' : ''}{String(pub.value)} Kops/s</strong> at p99 ≤ 20 ms
                    {pub.qualifier === 'implied' ? ' (implied: “does not change”)' : ''} · {pub.figure_or_table}
                    {pub.panel}
                  </>
                ) : (
                  <>Paper: not stated for {squeeze.gib} GiB</>
                )}
              </p>
            </section>
          );
        })}
      </div>
      <p className="chart-sentence" data-testid="race-sentence">
        {done.length === engines.length && engines.length > 0
            ? raceSentence(done.map((d) => d.lane), squeeze.gib, rate)
            : `Simulating ${engines.length} engines at ${rate.toLocaleString('en-US')} ops/s offered…`}
      </p>
      <p className="note">
        Simulated: {RUN_SECONDS} s of virtual time per lane, fast model{model ? `, model card ${model}` : ''}, seed {seed}.
        The paper’s figures come from its text (Figs 6, 8, 9, 11).
      </p>
      <details className="race-settings">
        <summary>Race settings</summary>
        <div className="knobs">
          <Knob name="race.wl" field={RACE_FIELDS.wl} value={wl} onChange={(v) => update((s) => ({ ...s, race: { ...s.race, wl: v } }))} />
          <Knob name="race.rate" field={RACE_FIELDS.rate} value={rate} onChange={(v) => update((s) => ({ ...s, race: { ...s.race, rate: v } }))} />
        </div>
      </details>
    </div>
  );
}

/**
 * A lane's figures in one fixed layout whatever the state: the current result, or the last one
 * (dimmed, with the step it belongs to) while the next simulates, or dashes before the first.
 * Nothing appears or disappears, so the board keeps its height.
 */
function LaneFigures({ colour, state, last }: { colour: string; state: LaneState | undefined; last: { lane: Lane; gib: number } | undefined }) {
  const current = state?.state === 'done' ? state.lane : null;
  const lane = current ?? last?.lane ?? null;
  const kops = useTween(lane ? lane.throughput_kops : null);
  const gc = useTween(lane ? lane.gc_share_pct : null);
  const status =
    state?.state === 'running'
      ? `simulating… ${Math.round(state.fraction * 100)} %`
      : state?.state === 'failed'
        ? state.message
        : state?.state === 'done'
          ? 'simulated'
          : 'queued';
  return (
    <div data-state={current ? 'done' : lane ? 'previous' : 'pending'} className={current ? 'lane-figures' : 'lane-figures stale'}>
      <p className="big">
        {kops === null ? '–' : kops.toFixed(1)} <span>Kops/s</span>
      </p>
      <p className={`mid ${lane ? (lane.met_slo ? 'ok' : 'bad') : ''}`}>
        {lane ? `p99 ${lane.p99_ms < 100 ? lane.p99_ms.toFixed(1) : Math.round(lane.p99_ms)} ms ${lane.met_slo ? '✓' : '✗ SLO'}` : 'p99 –'}
      </p>
      <div className="gc-bar" aria-label={`GC share ${gc === null ? 'not yet known' : `${gc.toFixed(1)} %`}`}>
        <div style={{ width: `${Math.min(100, gc ?? 0)}%`, background: colour }} />
      </div>
      <p className="small">GC: {gc === null ? '–' : gc.toFixed(1)} % of the leader’s vCPUs</p>
      <p className={`small lane-status${state?.state === 'failed' ? ' error-text' : ''}`} role={state?.state === 'running' ? 'status' : undefined}>
        {status}
        {!current && last ? ` · showing ${last.gib} GiB` : ''}
        {current && current.crashed.length > 0
          ? ` · ${current.crashed.map((c) => `n${c.node} died at ${c.t_s.toFixed(1)} s`).join(', ')} (out of memory)`
          : ''}
      </p>
    </div>
  );
}
