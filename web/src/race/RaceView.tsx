// The Race (demos): four engines side by side while memory is squeezed step by step. Big
// type; → or Space squeezes, ← gives memory back. Each lane's number is the paper's metric, the
// highest rate whose p99 meets the SLO at that memory, found live by the simulator's SLO search
// (the Lab's own measurement, window derived from the model); the paper's published figure for
// the same memory stands under it.
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
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
import { knobsOf } from '../lab/lab-spec.ts';
import { PAPER_METHOD, baseRunSpec, measurementSearchSpec, modelWindow } from '@replicant/sim/run/measurement';
import { nextRaceSearch, raceHint, raceLaneGroups } from '@replicant/sim/search/race-lanes';
import { seriesStyle } from '../theme/palette.ts';
import { SQUEEZE, formatKops, laneMitigation, laneOfSearch, laneReason, publishedAt, raceSentence, withLaneMitigation, type Lane } from './race-model.ts';
import { modeWords } from '../lab/mitigation-results.ts';
import { useTween } from '../app/useTween.ts';
import { priceThis, racePoint } from '../cost/price-this.ts';

const SLO_MS = PAPER_METHOD.slo_p99_ms;

type LastDone = { lane: Lane; model: string; gib: number };

type LaneState = { state: 'waiting' } | { state: 'running'; fraction: number } | { state: 'done'; lane: Lane; model: string } | { state: 'failed'; message: string };

/** A lane's search at one level, finished: its lane and the rate it met (the next level's warm
 * start). */
type Searched = { lane: Lane; model: string; answer: number | null };

/** What a worker is searching now. */
type Running = { engine: EngineName; ratio: number; fraction: number };

export default function RaceView({ state, update }: ViewProps) {
  const { step, wl, gomit, javamit } = state.race;
  const seed = state.seed;
  const level = Math.min(step, SQUEEZE.length - 1);
  const squeeze = SQUEEZE[level]!;
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  // Every search finished in this session, by lane, memory and settings (keyOf); and why a search
  // failed, until its level is shown again (then it is tried again).
  const searched = useRef(new Map<string, Searched>());
  const failed = useRef(new Map<string, string>());
  // What each worker is searching now (null: idle).
  const running = useRef<(Running | null)[]>([]);
  // The level shown, for the workers choosing their next search (it changes between searches).
  const shown = useRef(level);
  shown.current = level;
  // The last finished result of each lane that was shown, kept (dimmed) while the next step is
  // searched, so the board never blanks and the numbers move from the old value to the new one.
  const lastDone = useRef<Record<string, LastDone>>({});
  // The searches shown so far: the bars share one scale across them, so a falling engine's bar falls.
  const seen = useRef(new Set<string>());
  const [priceProblem, setPriceProblem] = useState<string | null>(null);
  // A simulation worker a core, up to one a lane (race-lanes.ts); an engine keeps its worker, whose
  // remembered probes serve its next level.
  const groups = useMemo(() => raceLaneGroups(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency), []);
  const runners = useRef<SimRunner[]>([]);
  // Wakes the idle workers (the level shown changed): set by the search effect for its settings.
  const wake = useRef<() => void>(() => {});
  useReady('race', true);

  useEffect(() => {
    runners.current = groups.map(() => new SimRunner());
    return () => runners.current.forEach((r) => r.close());
  }, [groups]);

  const engines = ENGINE_NAMES.filter((e) => BROWSER_ENGINES.includes(e));
  const keyOf = (e: EngineName, ratio: number) => `${e}|${ratio}|${wl}|${seed}|${laneMitigation({ gomit, javamit }, e)}`;

  // The workers search their lanes at the level shown and, once every lane is found there, go on
  // down the squeeze while the user looks at it (nextRaceSearch): the searches a press of → would
  // start, each warm from the lane's answers at the larger memory sizes already searched, so the
  // next level is usually found before it is asked for. A search under way is never stopped for
  // another level (the worker and its remembered probes would be lost); changed settings stop
  // every search.
  useEffect(() => {
    let cancelled = false;
    setPriceProblem(null);
    running.current = groups.map(() => null);
    const labAt = (ratio: number) => ({ ...defaultState().lab, wl, memunit: 'ratio' as const, ratio });
    // Cheapest lanes first: the model's window at a middling rate says how long each search's
    // probes will be (Java's full collections at a tight heap make its lane the slowest). (A dry
    // run of the collector on this thread: each lane's once a level.)
    const costs = new Map<string, number>();
    const cost = (e: EngineName, l: number) => {
      const k = `${e}@${l}`;
      if (!costs.has(k)) costs.set(k, modelWindow(baseRunSpec(knobsOf(labAt(SQUEEZE[l]!.ratio), seed), e, 10_000)).window_s);
      return costs.get(k)!;
    };
    const lanesAt = (worker: number) => (l: number) => groups[worker]!.filter((e) => engines.includes(e)).sort((a, b) => cost(a, l) - cost(b, l));
    const searchNext = (worker: number) => {
      if (cancelled || running.current[worker]) return;
      const settled = (e: EngineName, l: number) => searched.current.has(keyOf(e, SQUEEZE[l]!.ratio)) || failed.current.has(keyOf(e, SQUEEZE[l]!.ratio));
      const next = nextRaceSearch(lanesAt(worker), shown.current, SQUEEZE.length, settled, engines);
      if (!next) return;
      const e = next.engine;
      const ratio = SQUEEZE[next.level]!.ratio;
      const spec = withLaneMitigation(measurementSearchSpec(knobsOf(labAt(ratio), seed), e), laneMitigation({ gomit, javamit }, e));
      const hint = raceHint(SQUEEZE.slice(0, next.level).map((q) => searched.current.get(keyOf(e, q.ratio))?.answer));
      if (hint) spec.hint = hint;
      const now: Running = { engine: e, ratio, fraction: 0 };
      running.current[worker] = now;
      redraw();
      runners.current[worker]!.search(spec, (p) => {
        if (cancelled) return;
        now.fraction = p.fraction;
        redraw();
      }).then(
        ({ result }) => {
          if (cancelled) return;
          searched.current.set(keyOf(e, ratio), { lane: laneOfSearch(e, result), model: result.model_card_version, answer: result.max_ops_per_s_at_slo });
          running.current[worker] = null;
          redraw();
          // (a worker waiting for this level's last lane may go on now)
          wake.current();
        },
        (err: unknown) => {
          if (cancelled || err instanceof CancelledError) return;
          failed.current.set(keyOf(e, ratio), err instanceof Error ? err.message : String(err));
          running.current[worker] = null;
          redraw();
          wake.current();
        },
      );
    };
    wake.current = () => groups.forEach((_, worker) => searchNext(worker));
    wake.current();
    return () => {
      cancelled = true;
      wake.current = () => {};
      runners.current.forEach((r) => r.cancel());
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [groups, wl, seed, gomit, javamit]);

  // A level the workers have not searched yet comes before the ones below it; a lane that failed
  // there is tried again.
  useEffect(() => {
    setPriceProblem(null);
    for (const e of engines) failed.current.delete(keyOf(e, squeeze.ratio));
    wake.current();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [level]);

  const laneStateOf = (e: EngineName): LaneState => {
    const s = searched.current.get(keyOf(e, squeeze.ratio));
    if (s) return { state: 'done', lane: s.lane, model: s.model };
    const why = failed.current.get(keyOf(e, squeeze.ratio));
    if (why !== undefined) return { state: 'failed', message: why };
    const r = running.current.find((x) => x?.engine === e && x.ratio === squeeze.ratio);
    return r ? { state: 'running', fraction: r.fraction } : { state: 'waiting' };
  };
  const lanes: Record<string, LaneState> = Object.fromEntries(engines.map((e) => [e, laneStateOf(e)]));
  useEffect(() => {
    for (const e of engines) {
      const l = lanes[e];
      if (l?.state !== 'done') continue;
      lastDone.current[e] = { lane: l.lane, model: l.model, gib: squeeze.gib };
      seen.current.add(keyOf(e, squeeze.ratio));
    }
  });

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
  // Bars share one scale across the squeeze steps seen so far (this one included), so a falling engine's bar falls.
  const shownLanes = [...new Set([...seen.current, ...done.map((d) => keyOf(d.lane.engine, squeeze.ratio))])].map((k) => searched.current.get(k));
  const scale = Math.max(1, ...shownLanes.map((d) => d?.lane.max_kops ?? 0));

  return (
    <div className="race-view">
      <div className="race-head">
        <h1>
          {squeeze.gib} GiB <span className="note">of memory per node · a {4} GiB dataset · workload {wl}</span>
        </h1>
        <div className="race-steps" role="group" aria-label="Memory step">
          {SQUEEZE.map((s, i) => {
            // Found already (the workers search ahead while a level is looked at): shown at once.
            const ready = engines.every((e) => searched.current.has(keyOf(e, s.ratio)));
            return (
              <button
                key={s.gib}
                type="button"
                aria-pressed={i === step}
                data-ready={ready ? 'yes' : 'no'}
                title={ready ? `${s.gib} GiB: every lane found` : `${s.gib} GiB: not every lane found yet`}
                onClick={() => update((st) => ({ ...st, race: { ...st.race, step: i } }))}
              >
                {s.gib} GiB
              </button>
            );
          })}
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
              <h2 style={{ color: colour }} data-testid={`lane-title-${e}`}>
                {languageOf(e)}
                {laneMitigation({ gomit, javamit }, e) !== 'none' ? ` + ${modeWords(laneMitigation({ gomit, javamit }, e))}` : ''}
              </h2>
              {available && <LaneFigures engine={e} colour={colour} scale={scale} state={l} last={lastDone.current[e]} />}
              {!available && <p className="mid note">not in this build</p>}
              {available && (
                // Always drawn (disabled until this lane's search is done) so a lane's height never
                // changes when its result arrives: the Race's layout stays still.
                <button
                  type="button"
                  className="price-this"
                  data-testid={`price-race-${e}`}
                  disabled={l?.state !== 'done'}
                  title="Open the Cost view with every finished lane’s capacity at this memory"
                  onClick={() => {
                    if (l?.state !== 'done') return;
                    const priced = priceThis(state.cost, racePoint(done.map((d) => d.lane), squeeze.ratio, wl, l.model));
                    if (priced.ok) update((st) => ({ ...st, view: 'cost', cost: priced.cost }));
                    else setPriceProblem(`Cannot price ${squeeze.gib} GiB: ${priced.reason}.`);
                  }}
                >
                  Price this
                </button>
              )}
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
      {priceProblem && (
        <p className="error-text" role="alert" data-testid="race-price-problem">
          {priceProblem}
        </p>
      )}
      <p className="chart-sentence" data-testid="race-sentence">
        {done.length === engines.length && engines.length > 0
          ? raceSentence(done.map((d) => d.lane), squeeze.gib, SLO_MS)
          : `Searching, for each of ${engines.length} engines, the highest rate whose p99 meets ${SLO_MS} ms at ${squeeze.gib} GiB…`}
      </p>
      <p className="note">
        Simulated: the paper’s method (SLO search by bisection, each probe’s window long enough for the rarest GC event that can decide
        the p99, up to {PAPER_METHOD.max_window_s} s of virtual time), fast model{model ? `, model card ${model}` : ''}, seed {seed}. The paper’s
        figures come from its text (Figs 6, 8, 9, 11).
      </p>
      <details className="race-settings">
        <summary>Race settings</summary>
        <div className="knobs">
          <Knob name="race.wl" field={RACE_FIELDS.wl} value={wl} onChange={(v) => update((s) => ({ ...s, race: { ...s.race, wl: v } }))} />
          <Knob name="race.gomit" field={RACE_FIELDS.gomit} value={gomit} onChange={(v) => update((s) => ({ ...s, race: { ...s.race, gomit: v } }))} />
          <Knob name="race.javamit" field={RACE_FIELDS.javamit} value={javamit} onChange={(v) => update((s) => ({ ...s, race: { ...s.race, javamit: v } }))} />
        </div>
        <p className="note" data-testid="race-mitigation-note">
          C++ and Rust have no collector: there is nothing to mitigate. With one leader MITMEM alone gains nothing when the leader pauses
          (the followers send the client back to it); BLADE moves the leadership first (docs/mitigation.md).
        </p>
      </details>
    </div>
  );
}

/**
 * A lane's figures in one fixed layout whatever the state: the current result, or the last one
 * (dimmed, saying which memory it belongs to) while the next step is searched, or dashes before
 * the first. Nothing appears or disappears, so the board keeps its height.
 */
function LaneFigures({ engine: e, colour, scale, state, last }: { engine: EngineName; colour: string; scale: number; state: LaneState | undefined; last: LastDone | undefined }) {
  const current = state?.state === 'done' ? { lane: state.lane, model: state.model } : null;
  const shown = current ?? last ?? null;
  const lane = shown?.lane ?? null;
  const kops = useTween(lane ? (lane.max_kops ?? 0) : null);
  const ids = (name: string) => (current ? `${name}-${e}` : undefined);
  const status =
    state?.state === 'running'
      ? `searching for the highest rate meeting the SLO… ${Math.round(state.fraction * 100)} %`
      : state?.state === 'failed'
        ? state.message
        : state?.state === 'done'
          ? ''
          : 'queued';
  return (
    <div data-state={current ? 'done' : lane ? 'previous' : 'pending'} data-testid={ids('result')} className={current ? 'lane-figures' : 'lane-figures stale'}>
      <p className="big" data-testid={ids('headline')}>
        {lane === null || kops === null ? '–' : lane.max_kops === null ? `< ${formatKops(lane.min_kops)}` : formatKops(kops)} <span>Kops/s</span>
      </p>
      <div className="gc-bar throughput-bar" aria-label={lane ? `max throughput ${lane.max_kops === null ? 0 : formatKops(lane.max_kops)} Kops/s of ${formatKops(scale)}` : 'not yet known'}>
        <div data-testid={ids('bar')} style={{ width: `${Math.min(100, ((kops ?? 0) / scale) * 100)}%`, background: colour }} />
      </div>
      <p className={`mid ${lane ? (lane.max_kops !== null ? 'ok' : 'bad') : ''}`}>
        {lane === null ? `p99 –` : lane.max_kops === null ? `✗ misses p99 ≤ ${SLO_MS} ms` : `max at p99 ≤ ${SLO_MS} ms (p99 ${lane.p99_ms_at_max?.toFixed(1)} ms)`}
      </p>
      <p className="small lane-why" data-testid={ids('why')}>{lane ? laneReason(lane, SLO_MS) : ''}</p>
      <p className="small">
        {lane && shown
          ? `GC: ${lane.gc_share_pct.toFixed(1)} % of the leader’s vCPUs at the max · simulated, model card ${shown.model}, window up to ${Math.round(lane.window_s)} s`
          : 'GC: –'}
      </p>
      <p className={`small lane-status${state?.state === 'failed' ? ' error-text' : ''}`} role={state?.state === 'running' ? 'status' : undefined}>
        {status}
        {!current && last ? ` · showing ${last.gib} GiB` : ''}
        {lane && lane.crashed.length > 0 ? ` ${lane.crashed.map((c) => `n${c.node} died at ${c.t_s.toFixed(1)} s`).join(', ')} (out of memory)` : ''}
      </p>
    </div>
  );
}
