// The Lab (architects): the paper's experiment as knobs. Sweeps find, per engine, the highest
// rate whose p99 meets the SLO (the paper's method) in the simulator, in a Web Worker; the
// paper's published points are drawn beside every simulated one, and simulated numbers say so.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { Knob } from '../app/Knob.tsx';
import { useReady } from '../app/ready.ts';
import { FieldValidityContext, invalidSentence, useInvalidFields } from '../app/field-validity.ts';
import { useViewShortcuts, type Shortcut } from '../app/shortcuts.ts';
import { TOP_FIELDS } from '../state/app-state.ts';
import { LAB_FIELDS, LAB_FORM, labKnobHidden, type LabState } from './lab-fields.ts';
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { RunResult, SweepResult } from '@replicant/sim/api';
import { ChartFrame, SERIES_CSV_HEADER, legendOf, seriesCsvRows } from '../charts/ChartFrame.tsx';
import { XYChart } from '../charts/XYChart.tsx';
import { toCsv } from '../charts/csv.ts';
import type { ChartSeries } from '../charts/types.ts';
import { PAPER } from '../paper/results.ts';
import { formatValue } from '../paper/panel-model.ts';
import { CancelledError, SimRunner, type Progress } from '../simulation/runner.ts';
import { mitigatedSweepSpec, runSpec, sweepSpec } from './lab-spec.ts';
import { NINES_TICKS, lang, ninesLabel, nodeTimelineSeries, probeSeries, publishedSeries, spectrumSeries, sweepAxis, sweepFidelity, sweepSeries, type PointFidelity } from './lab-results.ts';
import { TOLERANCE_PERCENT, UTILIZATION_TOLERANCE_PP } from '@replicant/sim/fidelity/misses';
import { labSweepPoint, priceThis, priceTightVsAmple, singleRunWords } from '../cost/price-this.ts';
import { NOTHING_TO_MITIGATE, asMitigatedSeries, cliffShift, cliffSentence, hasCollector, mitigationRunSpecs, mitigationSeries, mitigationTable, modeSentence, modeWords, type MitigationRow } from './mitigation-results.ts';
import { BLADE_VALUES } from '../paper/mitigations.ts';
import { bladeTable7 } from '@replicant/data/mitigations';
import { MITIGATION_MODEL_VERSION } from '@replicant/sim/models/mitigation';
import { StoragePanel, type StorageRuns } from './StoragePanel.tsx';
import { volatileSpec } from './storage-results.ts';

// mitigated: the same sweep with the Lab's GC mitigation (Go and Java only), null without one
type SweepKept = { result: SweepResult; mitigated: SweepResult | null; lab: LabState; seed: number; wall_ms: number; key: string };
type MitigationRuns = { engine: EngineName; mitigated: RunResult; gcOn: RunResult; gcOff: RunResult };
type RunsKept = { results: { engine: EngineName; result: RunResult }[]; mitigation: MitigationRuns[]; storage: StorageRuns[]; lab: LabState; wall_ms: number; key: string };

// Results live as long as the page: switching to another view and back keeps them. (The URL
// keeps the knobs and the seed, from which the same run gives the same numbers.)
const kept: { sweep: SweepKept | null; runs: RunsKept | null } = { sweep: null, runs: null };

/** What a result depends on: the simulator's whole specification. Results belong to one key. */
function sweepKey(s: LabState, seed: number): string {
  return JSON.stringify([sweepSpec(s, seed), mitigatedSweepSpec(s, seed)]);
}
function runsKey(s: LabState, seed: number): string {
  return JSON.stringify(s.engines.map((e) => mitigationRunSpecs(runSpec(s, seed, e), s.mit, e).map((r) => r.spec)));
}

function settingsWords(lab: LabState, seed: number): string {
  const points = lab.sweep === 'vcpus' ? `${lab.vcpulist.join(', ')} vCPUs` : lab.memunit === 'gib' ? `${lab.gibs.join(', ')} GiB` : `ratios ${lab.ratios.join(', ')}`;
  return `${lab.engines.map(lang).join(', ')}; ${points}; workload ${lab.wl}; seed ${seed}`;
}

type Job = { state: 'idle' } | { state: 'running'; what: string; progress: Progress; started: number } | { state: 'failed'; message: string };

function axisWords(s: LabState): string {
  return s.sweep === 'vcpus' ? 'vCPUs per node' : 'Memory per node (GiB)';
}

function sweepSentence(sim: ChartSeries[], published: ChartSeries[], s: LabState): string {
  if (sim.length === 0) {
    return published.length
      ? `The points are the paper's AWS measurements for these configurations (hover for the sentence each comes from). Run a sweep to draw the simulator's estimate beside them.`
      : 'The paper states no point for these configurations; run a sweep to see the simulator’s estimate.';
  }
  const parts = sim.map((series) => {
    const first = series.points[0];
    const last = series.points[series.points.length - 1];
    if (!first || !last || first === last) return `${series.styleKey} ${first?.label ?? '?'} Kops/s`;
    return `${series.styleKey} ${first.label} → ${last.label} Kops/s`;
  });
  const unit = s.sweep === 'vcpus' ? 'vCPUs' : 'GiB';
  const axis = sweepAxis(s);
  return `Simulated, from ${axis[0]} to ${axis[axis.length - 1]} ${unit}: ${parts.join('; ')}. Hollow dotted points are the simulator's; filled ones the paper's measurements.`;
}

export default function LabView({ state, update }: ViewProps) {
  const s = state.lab;
  const seed = state.seed;
  const [job, setJob] = useState<Job>({ state: 'idle' });
  const [sweep, setSweepState] = useState<SweepKept | null>(() => kept.sweep);
  const [runs, setRunsState] = useState<RunsKept | null>(() => kept.runs);
  const setSweep = (v: SweepKept) => setSweepState((kept.sweep = v));
  const setRuns = (v: RunsKept) => setRunsState((kept.runs = v));
  const { invalid, report } = useInvalidFields();
  const blocked = invalidSentence(invalid);
  const sweepFresh = sweep !== null && blocked === null && sweep.key === sweepKey(s, seed);
  const runsFresh = runs !== null && blocked === null && runs.key === runsKey(s, seed);
  const restore = (lab: LabState, at: number) => update((st) => ({ ...st, lab, seed: at }));
  const [probeAt, setProbeAt] = useState(0);
  const [timelineEngine, setTimelineEngine] = useState<EngineName | null>(null);
  const runner = useRef<SimRunner | null>(null);
  useReady('lab', true);

  useEffect(() => {
    runner.current = new SimRunner();
    return () => runner.current?.close();
  }, []);

  const set = <K extends keyof LabState>(k: K, v: LabState[K]) => update((st) => ({ ...st, lab: { ...st.lab, [k]: v } }));

  const startSweep = async () => {
    if (blocked) return;
    const spec = sweepSpec(s, seed);
    const mspec = mitigatedSweepSpec(s, seed);
    const key = sweepKey(s, seed);
    const snapshot = structuredClone(s);
    const started = performance.now();
    setJob({ state: 'running', what: mspec ? 'sweep without a mitigation' : 'sweep', progress: { fraction: 0, label: 'starting' }, started });
    try {
      const { result, wall_ms } = await runner.current!.sweep(spec, (progress) => setJob((j) => (j.state === 'running' ? { ...j, progress } : j)));
      let mitigated: SweepResult | null = null;
      let wall = wall_ms;
      if (mspec) {
        setJob({ state: 'running', what: `sweep with ${modeWords(s.mit)} (Go and Java)`, progress: { fraction: 0, label: 'starting' }, started });
        const m = await runner.current!.sweep(mspec, (progress) => setJob((j) => (j.state === 'running' ? { ...j, progress } : j)));
        mitigated = m.result;
        wall += m.wall_ms;
      }
      setSweep({ result, mitigated, lab: snapshot, seed, wall_ms: wall, key });
      setProbeAt(0);
      setJob({ state: 'idle' });
    } catch (e) {
      setJob(e instanceof CancelledError ? { state: 'idle' } : { state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  };

  const startRuns = async () => {
    if (blocked) return;
    const snapshot = structuredClone(s);
    const key = runsKey(s, seed);
    const started = performance.now();
    const results: { engine: EngineName; result: RunResult }[] = [];
    const mitigation: MitigationRuns[] = [];
    const storage: StorageRuns[] = [];
    let wall = 0;
    try {
      for (const [i, engine] of s.engines.entries()) {
        // With a mitigation, a GC engine runs three times: mitigated, GC on, GC off (Table 7).
        const specs = mitigationRunSpecs(runSpec(s, seed, engine), s.mit, engine);
        const got: Partial<Record<'mitigated' | 'gc-on' | 'gc-off', RunResult>> = {};
        for (const [j, { role, spec }] of specs.entries()) {
          const what = `run ${i + 1} of ${s.engines.length} (${lang(engine)}${specs.length > 1 ? `, ${role === 'mitigated' ? modeWords(s.mit) : role.replace('-', ' ')}` : ''})`;
          const at = (i + j / specs.length) / s.engines.length;
          setJob({ state: 'running', what, progress: { fraction: at, label: 'starting' }, started });
          const { result, wall_ms } = await runner.current!.run(spec, (p) =>
            setJob((jb) => (jb.state === 'running' ? { ...jb, progress: { fraction: at + p.fraction / specs.length / s.engines.length, label: p.label } } : jb)),
          );
          got[role] = result;
          wall += wall_ms;
        }
        results.push({ engine, result: got.mitigated ?? got['gc-on']! });
        if (got.mitigated && got['gc-off']) mitigation.push({ engine, mitigated: got.mitigated, gcOn: got['gc-on']!, gcOff: got['gc-off'] });
        // With durability, the same run without it, to show what persisting adds.
        const volatile = volatileSpec(runSpec(s, seed, engine));
        if (volatile) {
          setJob({ state: 'running', what: `run ${i + 1} of ${s.engines.length} (${lang(engine)}, without durability)`, progress: { fraction: (i + 1) / s.engines.length, label: 'starting' }, started });
          const { result, wall_ms } = await runner.current!.run(volatile, () => {});
          wall += wall_ms;
          storage.push({ engine, durable: results[results.length - 1]!.result, volatile: result });
        }
      }
      setRuns({ results, mitigation, storage, lab: snapshot, wall_ms: wall, key });
      setTimelineEngine(results[0]?.engine ?? null);
      setJob({ state: 'idle' });
    } catch (e) {
      setJob(e instanceof CancelledError ? { state: 'idle' } : { state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  };

  const running = job.state === 'running';
  const shortcuts = useMemo<Shortcut[]>(
    () => [
      { key: 'r', label: 'run a sweep', run: () => !running && void startSweep() },
      { key: 'x', label: 'cancel the sweep or run', run: () => runner.current?.cancel() },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [running, s, seed, blocked],
  );
  useViewShortcuts(shortcuts);

  // Charts: the published points for the current knobs, the simulated ones for the knobs they ran with.
  const published = useMemo(() => publishedSeries(PAPER.rows, s), [s]);
  // Results are drawn only under the settings that made them; otherwise the chart is the
  // current settings' and the results wait behind a notice (never old points on new axes).
  const shownSweep = sweepFresh ? sweep : null;
  const shownRuns = runsFresh ? runs : null;
  const simulated = useMemo(() => {
    if (!shownSweep) return [];
    const plain = sweepSeries(shownSweep.result, shownSweep.lab, shownSweep.seed, PAPER.rows);
    if (!shownSweep.mitigated) return plain;
    const gcLab = { ...shownSweep.lab, engines: shownSweep.lab.engines.filter(hasCollector) };
    return [...plain, ...asMitigatedSeries(sweepSeries(shownSweep.mitigated, gcLab, shownSweep.seed), shownSweep.lab.mit)];
  }, [shownSweep]);
  const cliff = useMemo(() => {
    if (!shownSweep?.mitigated) return null;
    const l = shownSweep.lab;
    return cliffSentence(cliffShift(shownSweep.result, shownSweep.mitigated, sweepAxis(l)), l.mit, l.sweep === 'vcpus' ? 'vCPUs' : 'GiB', lang, l.engines.some((e) => !hasCollector(e)));
  }, [shownSweep]);
  const fidelity = useMemo(() => (shownSweep ? sweepFidelity(shownSweep.result, shownSweep.lab, PAPER.rows) : []), [shownSweep]);
  const sweepLab = s;
  const axis = useMemo(() => sweepAxis(sweepLab), [sweepLab]);
  const sweepChart = useMemo(() => [...published, ...simulated], [published, simulated]);
  const xBand = useMemo(() => ({ kind: 'band' as const, categories: axis, label: axisWords(sweepLab) }), [axis, sweepLab]);
  const yKops = useMemo(() => ({ kind: 'linear' as const, label: `Max throughput at p99 ≤ ${sweepLab.slo} ms (Kops/s)` }), [sweepLab.slo]);
  const probes = useMemo(() => (shownSweep ? probeSeries(shownSweep.result, shownSweep.lab, probeAt) : []), [shownSweep, probeAt]);
  const spectrum = useMemo(() => (shownRuns ? spectrumSeries(shownRuns.results) : []), [shownRuns]);
  const timelineRun = shownRuns?.results.find((r) => r.engine === timelineEngine) ?? shownRuns?.results[0];
  const cpu = useMemo(() => (timelineRun ? nodeTimelineSeries(timelineRun.result, 'cpu_utilization') : []), [timelineRun]);
  const gc = useMemo(() => (timelineRun ? nodeTimelineSeries(timelineRun.result, 'gc_cpu_share') : []), [timelineRun]);
  const leaderMarks = useMemo(() => (timelineRun ? timelineRun.result.leader_changes.map((c) => ({ x: c.t_s, label: `n${c.leader} leads` })) : []), [timelineRun]);

  return (
    <div className="lab-view">
      <h1>Turn the paper’s knobs</h1>
      <p className="lede">
        The paper’s experiment, in a simulator you can steer: a 3-node Replicant cluster per engine, YCSB load, and the highest rate whose
        p99 latency meets the SLO. The simulator runs the real engines with modelled CPUs, network and garbage collectors. Its numbers
        are estimates and say so; the paper’s AWS measurements are drawn beside them.
      </p>
      <div className="side-layout">
      <FieldValidityContext.Provider value={report}>
      <form className="lab-form" onSubmit={(e) => e.preventDefault()} aria-label="Lab knobs">
        {LAB_FORM.map((g) => (
          <fieldset key={g.legend}>
            <legend>{g.legend}</legend>
            <div className="knobs">
              {g.keys
                .filter((k) => !labKnobHidden(s, k))
                .map((k) => (
                  <Knob key={k} name={`lab.${k}`} field={LAB_FIELDS[k] as never} value={s[k] as never} onChange={(v) => set(k, v as never)} disabled={running} />
                ))}
              {g.legend.startsWith('Engines') && (
                <Knob name="seed" field={TOP_FIELDS.seed} value={seed} onChange={(v) => update((st) => ({ ...st, seed: v }))} disabled={running} />
              )}
            </div>
          </fieldset>
        ))}
        <div className="toolbar">
          <button type="button" className="primary" onClick={() => void startSweep()} disabled={running || blocked !== null} data-testid="run-sweep" title="key r">
            Find max throughput at the SLO ({s.engines.length} engine{s.engines.length === 1 ? '' : 's'} × {s.sweep === 'vcpus' ? s.vcpulist.length : s.memunit === 'gib' ? s.gibs.length : s.ratios.length} points)
          </button>
          <button type="button" onClick={() => void startRuns()} disabled={running || blocked !== null} data-testid="run-once">
            Run each engine at {s.rate.toLocaleString('en-US')} ops/s
          </button>
          <button type="button" onClick={() => runner.current?.cancel()} disabled={!running} data-testid="cancel" title="key x">
            Cancel
          </button>
        </div>
        {blocked && (
          <p className="field-error" role="alert" data-testid="lab-invalid">
            Nothing runs until this is fixed. {blocked}
          </p>
        )}
      </form>
      </FieldValidityContext.Provider>
      <div className="results">
      {job.state === 'running' && (
        <div className="progress" role="status" data-testid="lab-progress">
          <progress max={1} value={job.progress.fraction} aria-label={`${job.what} progress`} />
          <span>
            {job.what}: {job.progress.label} · {Math.round(job.progress.fraction * 100)} % · {((performance.now() - job.started) / 1000).toFixed(0)} s
          </span>
        </div>
      )}
      {job.state === 'failed' && (
        <p className="problems" role="alert" data-testid="lab-error">
          The simulator stopped: {job.message}
        </p>
      )}
      {sweep && !sweepFresh && (
        <p className="stale-note" role="status" data-testid="lab-stale">
          {blocked ? 'A field cannot be read, so the last sweep is not drawn. ' : 'The settings changed since the last sweep, so it is not drawn on these axes. '}
          It ran with: {settingsWords(sweep.lab, sweep.seed)}.{' '}
          <button type="button" onClick={() => restore(sweep.lab, sweep.seed)} data-testid="lab-restore-sweep">
            Back to its settings
          </button>
        </p>
      )}
      {runs && !runsFresh && (
        <p className="stale-note" role="status" data-testid="lab-stale-runs">
          The single runs at {runs.lab.rate.toLocaleString('en-US')} ops/s were made with other settings ({settingsWords(runs.lab, JSON.parse(runs.key)[0]?.cluster?.seed ?? seed)}).{' '}
          <button type="button" onClick={() => restore(runs.lab, JSON.parse(runs.key)[0]?.cluster?.seed ?? seed)}>
            Back to their settings
          </button>
        </p>
      )}
      <ChartFrame
        id="lab-sweep"
        title={`Max throughput at the SLO vs ${s.sweep === 'vcpus' ? 'vCPUs' : 'memory'} (Fig ${s.sweep === 'vcpus' ? '7/10' : '6/9'} layout)`}
        legend={legendOf(sweepChart)}
        sentence={sweepSentence(simulated, published, sweepLab)}
        source={
          <>
            {shownSweep ? `Simulated with model card ${shownSweep.result.model_card_version}, seed ${shownSweep.seed}, ${(shownSweep.wall_ms / 1000).toFixed(1)} s of computing. ` : ''}
            Published points: the paper’s text (data/paper), hover for the quote.
          </>
        }
        csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(sweepChart))}
      >
        {(ref) => <XYChart svgRef={ref} title="Max throughput at the SLO" series={sweepChart} x={xBand} y={yKops} />}
      </ChartFrame>
      {cliff && (
        <p className="chart-sentence" data-testid="lab-sweep-mitigation">
          {cliff} Mitigation model {MITIGATION_MODEL_VERSION}, model card {shownSweep!.result.model_card_version}.
        </p>
      )}
      {shownSweep && <FidelityTable rows={fidelity} unit={shownSweep.lab.sweep === 'vcpus' ? 'vCPUs' : 'GiB'} model={shownSweep.result.model_card_version} />}
      {shownSweep && (
        <div className="toolbar price-this" role="group" aria-label="Price a sweep point in the Cost view" data-testid="lab-price-this">
          <span>Price this in the Cost view (every engine’s simulated capacity at that point):</span>
          {axis.map((x, i) => {
            const priced = priceThis(state.cost, labSweepPoint(shownSweep.result, shownSweep.lab, i));
            const unit = shownSweep.lab.sweep === 'vcpus' ? 'vCPUs' : 'GiB';
            return (
              <button
                key={x}
                type="button"
                data-testid={`price-lab-${i}`}
                disabled={!priced.ok}
                title={priced.ok ? undefined : `Cannot price: ${priced.reason}`}
                onClick={() =>
                  update((st) => {
                    const now = priceThis(st.cost, labSweepPoint(shownSweep.result, shownSweep.lab, i));
                    return now.ok ? { ...st, view: 'cost', cost: now.cost } : st;
                  })
                }
              >
                at {x} {unit}
                {priced.ok ? '' : ` (${priced.reason})`}
              </button>
            );
          })}
          {shownSweep.lab.sweep === 'memory' &&
            (() => {
              const both = priceTightVsAmple(state.cost, shownSweep.result, shownSweep.lab);
              return (
                <button
                  type="button"
                  className="primary"
                  data-testid="price-lab-tight-vs-ample"
                  disabled={!both.ok}
                  title={both.ok ? 'Opens the Cost view with the largest and the smallest memory of this sweep side by side' : `Cannot price: ${both.reason}`}
                  onClick={() =>
                    update((st) => {
                      const now = priceTightVsAmple(st.cost, shownSweep.result, shownSweep.lab);
                      return now.ok ? { ...st, view: 'cost', cost: now.cost } : st;
                    })
                  }
                >
                  Tight vs ample
                  {both.ok ? '' : ` (${both.reason})`}
                </button>
              );
            })()}
        </div>
      )}
      {shownSweep && (
        <ChartFrame
          id="lab-probes"
          title="Throughput against p99 latency (the search’s probe runs)"
          legend={legendOf(probes)}
          sentence={`Each point is one simulated run at an offered rate; the search keeps the highest that stays under the ${shownSweep.lab.slo} ms line. Past it, latency climbs steeply: the cluster is saturated or collecting garbage.`}
          source={
            <label>
              At{' '}
              <select value={probeAt} onChange={(e) => setProbeAt(Number(e.target.value))} aria-label="sweep point">
                {axis.map((x, i) => (
                  <option key={x} value={i}>
                    {x} {shownSweep.lab.sweep === 'vcpus' ? 'vCPUs' : 'GiB'}
                  </option>
                ))}
              </select>{' '}
              · simulated, model card {shownSweep.result.model_card_version}
            </label>
          }
          csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(probes))}
        >
          {(ref) => (
            <XYChart
              svgRef={ref}
              title="Throughput against p99"
              series={probes}
              x={{ kind: 'linear', label: 'Achieved throughput (Kops/s)' }}
              y={{ kind: 'log', label: 'p99 latency (ms, log)' }}
              references={[{ y: shownSweep.lab.slo, label: `SLO ${shownSweep.lab.slo} ms` }]}
            />
          )}
        </ChartFrame>
      )}
      {shownRuns && (
        <>
          <ChartFrame
            id="lab-spectrum"
            title={`Latency percentile spectrum at ${shownRuns.lab.rate.toLocaleString('en-US')} ops/s offered`}
            legend={legendOf(spectrum)}
            sentence={`Every percentile, not an average: the right of the chart is where GC pauses show. ${shownRuns.results
              .map((r) => `${lang(r.engine)} p99 ${formatValue(r.result.latency.all.p99_us / 1000)} ms, p99.9 ${formatValue(r.result.latency.all.p999_us / 1000)} ms`)
              .join('; ')}. Latency counts from each request's intended start (${shownRuns.lab.loop} loop).`}
            source={`Simulated, model card ${shownRuns.results[0]?.result.model_card_version}; HdrHistogram spectrum; ${(shownRuns.wall_ms / 1000).toFixed(1)} s of computing.`}
            csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(spectrum))}
          >
            {(ref) => (
              <XYChart
                svgRef={ref}
                title="Latency percentile spectrum"
                series={spectrum}
                x={{ kind: 'linear', label: 'Percentile (log 1/(1−p) scale)', domain: [0, 5], ticks: NINES_TICKS, format: ninesLabel }}
                y={{ kind: 'log', label: 'Latency (ms, log)' }}
                references={[{ y: shownRuns.lab.slo, label: `SLO ${shownRuns.lab.slo} ms` }]}
                markers={false}
              />
            )}
          </ChartFrame>
          {shownRuns.lab.mit !== 'none' && <MitigationPanel runs={shownRuns} />}
          {shownRuns.storage.length > 0 && <StoragePanel runs={shownRuns.storage} lang={lang} />}
          <div className="note" data-testid="lab-run-not-priced">
            <p>
              Not priced in the Cost view: these runs measured one offered rate. A capacity is the highest rate that still meets the SLO, and
              one rate only bounds it. Run a sweep to price these engines.
            </p>
            <ul>
              {singleRunWords(
                shownRuns.results.map((r) => ({ engine: r.engine, p99_us: r.result.latency.all.p99_us, achieved_ops_per_s: r.result.achieved_ops_per_s })),
                shownRuns.lab.rate,
                shownRuns.lab.slo,
                lang,
              ).map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
          <div className="toolbar" role="group" aria-label="Engine of the timelines">
            {shownRuns.results.map((r) => (
              <button key={r.engine} type="button" aria-pressed={r.engine === timelineRun?.engine} onClick={() => setTimelineEngine(r.engine)}>
                {lang(r.engine)}
              </button>
            ))}
          </div>
          {timelineRun && (
            <div className="chart-grid">
              <NodeTimelineChart engine={timelineRun.engine} result={timelineRun.result} which="cpu_utilization" series={cpu} verticals={leaderMarks} />
              <NodeTimelineChart engine={timelineRun.engine} result={timelineRun.result} which="gc_cpu_share" series={gc} verticals={leaderMarks} />
            </div>
          )}
        </>
      )}
      </div>
      </div>
      <p className="note">
        Results stay while this page is open, across views; they are drawn only under the settings that made them. The address keeps
        the knobs and the seed, not the results: the same knobs and seed give the same numbers again, in any browser.
      </p>
    </div>
  );
}

const PERCENTILE_AXIS = { kind: 'band' as const, categories: ['99th', '99.9th', '99.99th'], label: 'Percentile of request latency' };

/** The mitigation knob's result: each GC engine's p99 / p99.9 / p99.99 with the mode, with GC
 * off and with GC on, in BLADE's Table 7 layout, beside BLADE's own Table 7 (etcd). */
function MitigationPanel({ runs }: { runs: RunsKept }) {
  const mode = runs.lab.mit;
  const card = runs.results[0]?.result.model_card_version ?? '?';
  const tables = runs.mitigation.map((m) => ({ engine: m.engine, rows: mitigationTable(m), stats: m.mitigated.mitigation }));
  const series = tables.flatMap((t) => mitigationSeries(lang(t.engine), mode, t.rows, card));
  const paper = bladeTable7(BLADE_VALUES).filter((r) => r.percentile === 'p99' || r.percentile === 'p99.9' || r.percentile === 'p99.99');
  const noCollector = runs.lab.engines.filter((e) => !hasCollector(e));
  const sentence = (
    <>
      {modeSentence(mode, tables[0]?.stats)}
      {noCollector.length > 0 && ` ${NOTHING_TO_MITIGATE}`}
    </>
  );
  const ms = (v: number) => formatValue(Number(v.toPrecision(3)));
  return (
    <section data-testid="lab-mitigation" aria-label="Mitigation against GC on and GC off">
      {tables.length > 0 ? (
        <ChartFrame
          id="lab-mitigation-chart"
          title={`Tail latency with ${modeWords(mode)}, GC off and GC on (BLADE Table 7 layout)`}
          legend={legendOf(series)}
          sentence={sentence}
          source={`Simulated, model card ${card}, mitigation model ${tables[0]?.stats?.model_version ?? '?'}; three runs per engine with the same seed and load. GC off: the collector never runs and the heap only grows, as BLADE’s GC-Off set-up.`}
          csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(series))}
        >
          {(ref) => <XYChart svgRef={ref} title="Tail latency by mitigation" series={series} x={PERCENTILE_AXIS} y={{ kind: 'log', label: 'Latency (ms, log)' }} />}
        </ChartFrame>
      ) : (
        <p className="chart-sentence" data-testid="lab-mitigation-none">
          {NOTHING_TO_MITIGATE}
        </p>
      )}
      <table className="data" data-testid="lab-mitigation-table">
        <caption className="note" style={{ captionSide: 'bottom', textAlign: 'left' }}>
          Milliseconds. Simulated rows are estimates of this lab (model card {card}); the last rows are BLADE’s own Table 7 (etcd, §5.2),
          stated by that paper, for the shape, not the same system or load.
        </caption>
        <thead>
          <tr>
            <th>Percentile</th>
            <th>Run</th>
            <th className="num">{modeWords(mode)}</th>
            <th className="num">GC off</th>
            <th className="num">GC on</th>
          </tr>
        </thead>
        <tbody>
          {tables.flatMap((t) =>
            t.rows.map((r: MitigationRow) => (
              <tr key={`${t.engine}-${r.percentile}`} data-testid={`mitigation-${t.engine}-p${r.percentile}`}>
                <th scope="row">{r.percentile}th</th>
                <td>{lang(t.engine)} · simulated</td>
                <td className="num">{ms(r.mitigated_ms)}</td>
                <td className="num">{ms(r.gc_off_ms)}</td>
                <td className="num">{ms(r.gc_on_ms)}</td>
              </tr>
            )),
          )}
          {paper.map((r) => (
            <tr key={`paper-${r.percentile}`} data-testid={`mitigation-paper-${r.percentile}`}>
              <th scope="row">{r.percentile.replace(/^p/, '')}th</th>
              <td>etcd · stated in BLADE’s Table 7</td>
              <td className="num">{r.cells[0]!.printed}</td>
              <td className="num">{r.cells[1]!.printed}</td>
              <td className="num">{r.cells[2]!.printed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Each simulated point beside the paper's value for it, with the error; a point outside the
 * tolerance says so and gives the model's known reason (docs/fidelity.md). */
function FidelityTable({ rows, unit, model }: { rows: PointFidelity[]; unit: string; model: string }) {
  if (rows.length === 0) return <p className="note" data-testid="lab-fidelity-none">The paper states none of these points, so there is nothing to compare the simulation with.</p>;
  const k = (v: number) => formatValue(v);
  return (
    <table className="fidelity-table" data-testid="lab-fidelity">
      <caption>
        Simulated (model card {model}) beside the paper’s value for the same point; throughputs further than ±{TOLERANCE_PERCENT} % and leader
        utilisations further than ±{UTILIZATION_TOLERANCE_PP} pp are marked with the reason (docs/fidelity.md).
      </caption>
      <thead>
        <tr>
          <th scope="col">Engine</th>
          <th scope="col">{unit}</th>
          <th scope="col">Simulated (Kops/s)</th>
          <th scope="col">Paper (Kops/s)</th>
          <th scope="col">Error</th>
          <th scope="col">Leader CPU: simulated, paper, error</th>
          <th scope="col">Why it misses</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((f) => {
          const u = f.utilization;
          return (
            <tr key={`${f.engine}-${f.x}`} data-testid={`fidelity-${f.engine}-${f.x}`} data-outside={f.outside ? 'yes' : 'no'} data-utilization-outside={u ? (u.outside ? 'yes' : 'no') : 'none'}>
              <td>{lang(f.engine)}</td>
              <td>{f.x}</td>
              <td>{f.simulated_kops === null ? `< ${k(f.min_kops)}` : k(f.simulated_kops)} (simulated)</td>
              <td>
                {f.paper ? (
                  <>
                    {f.paper.qualifier === 'upper_bound' ? '< ' : f.paper.qualifier === 'approx' ? '≈ ' : ''}
                    {f.paper.value} ({f.paper.source})
                  </>
                ) : (
                  'not stated'
                )}
              </td>
              <td className={f.outside ? 'bad' : 'ok'}>
                {!f.paper ? '—' : f.error_pct === null ? (f.within_bound ? 'within the bound' : 'outside the bound') : `${f.error_pct >= 0 ? '+' : '−'}${k(Math.abs(f.error_pct))} %`}
                {f.outside ? ` ✗ outside ±${TOLERANCE_PERCENT} %` : ''}
              </td>
              <td className={u ? (u.outside ? 'bad' : 'ok') : ''} data-testid={`fidelity-util-${f.engine}-${f.x}`}>
                {u
                  ? `${u.simulated_pct === null ? '—' : `${k(u.simulated_pct)} %`} (simulated), ${u.paper.value} % (${u.paper.source}), ${u.error_pp === null ? 'no rate met the SLO' : `${u.error_pp >= 0 ? '+' : '−'}${k(Math.abs(u.error_pp))} pp`}${u.outside ? ` ✗ outside ±${UTILIZATION_TOLERANCE_PP} pp` : ''}`
                  : '—'}
              </td>
              <td>{[...new Set([f.reason, u?.reason].filter((r): r is string => !!r))].join(' ')}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function NodeTimelineChart(props: {
  engine: EngineName;
  result: RunResult;
  which: 'cpu_utilization' | 'gc_cpu_share';
  series: ChartSeries[];
  verticals: { x: number; label: string }[];
}) {
  const { engine, result, which, series, verticals } = props;
  const cpu = which === 'cpu_utilization';
  const title = `${lang(engine)}: ${cpu ? 'vCPU utilization' : 'vCPUs spent on GC'} per node`;
  const means = result.nodes.map((n) => `n${n.node} ${formatValue((cpu ? n.mean_cpu_utilization : n.mean_gc_cpu_share) * 100)} %`).join(', ');
  const changes = result.leader_changes.length;
  const sentence = cpu
    ? `Mean over the window: ${means}. ${changes} leader change${changes === 1 ? '' : 's'} (marked).`
    : `Mean GC share: ${means}; ${result.nodes.reduce((k, n) => k + n.gc_events.length, 0)} collections.`;
  return (
    <ChartFrame
      id={cpu ? 'lab-cpu' : 'lab-gc'}
      title={title}
      legend={legendOf(series)}
      sentence={sentence}
      source={`Simulated, model card ${result.model_card_version}.`}
      csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(series))}
    >
      {(ref) => (
        <XYChart
          svgRef={ref}
          title={title}
          series={series}
          x={{ kind: 'linear', label: 'Simulated time (s)' }}
          y={{ kind: 'linear', label: cpu ? 'vCPUs busy (%)' : 'vCPUs on GC (%)', domain: [0, 100] }}
          verticals={verticals}
          markers={false}
        />
      )}
    </ChartFrame>
  );
}
