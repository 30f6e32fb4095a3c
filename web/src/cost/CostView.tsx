// The cost page: the cost model (cost-model/, Python) running in the browser through Pyodide.
// A form with the paper's defaults; cumulative cost per language with the break-even month;
// instances needed; which input moves the break-even most. Shareable by URL, exportable as CSV.
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ViewProps } from '../app/view-props.ts';
import { ENGINES, LANGUAGES } from '@replicant/engines/loader/catalogue';
import { capacitySourceWords } from './capacity-source.ts';
import { Knob } from '../app/Knob.tsx';
import { COST_FIELDS, COST_FORM, type CostState } from './cost-fields.ts';
import { ChartFrame, SERIES_CSV_HEADER, legendOf, seriesCsvRows } from '../charts/ChartFrame.tsx';
import { XYChart } from '../charts/XYChart.tsx';
import { toCsv } from '../charts/csv.ts';
import { download } from '../charts/export.ts';
import { CostClient, CostInputError, type CostStatus } from './cost-client.ts';
import { toCostInputs, toMemoryInputs } from './cost-inputs.ts';
import { InstanceTradeoff, TightVsAmple, type OptionsResult } from './CostOptions.tsx';
import type { InstancesOutput, MemoryOutput } from './cost-options.ts';
import { settingWords, stalePriced, staleSentence, usableCapacity, type Side, type StalePriced } from './priced-setting.ts';
import { useReady } from '../app/ready.ts';
import { PRESETS, applyPreset } from './presets.ts';
import { FieldValidityContext, invalidSentence, useInvalidFields } from '../app/field-validity.ts';
import { EstimateListenerContext } from './estimate-listener.ts';
import { countText, breakEvenSentence, infeasibleNotes, monthSeries, usd, type EstimateOutput, type SensitivityOutput } from './cost-output.ts';

type Result =
  | { state: 'none' }
  | { state: 'computing' }
  | { state: 'done'; estimate: EstimateOutput; sensitivity: SensitivityOutput; run_ms: number }
  | { state: 'input-error'; message: string }
  | { state: 'failure'; message: string };


function inputWords(input: string): string {
  const [head, ...rest] = input.split('.');
  const tail = rest.join('.');
  const names: Record<string, string> = {
    capacity: `capacity of ${tail}`,
    'development.effort_multiplier': `effort multiplier of ${input.split('.').pop()}`,
  };
  if (head === 'capacity') return names.capacity!;
  if (input.startsWith('development.effort_multiplier.')) return names['development.effort_multiplier']!;
  return input.replace(/\./g, ' › ').replace(/_/g, ' ');
}

function StatusLine({ status, result }: { status: CostStatus; result: Result }) {
  if (status.state === 'starting' || status.state === 'idle') {
    return (
      <p className="status starting" role="status" data-testid="cost-status">
        <span className="spinner" aria-hidden="true" /> Starting Python in your browser (Pyodide, served by this site)… the first start takes a few
        seconds.
      </p>
    );
  }
  if (status.state === 'failed') {
    return (
      <p className="error-text" role="alert" data-testid="cost-status">
        The cost model could not start: {status.message}
      </p>
    );
  }
  return (
    <p className="note" role="status" data-testid="cost-status">
      Python {status.python} (Pyodide) started in {(status.startup_ms / 1000).toFixed(1)} s
      {result.state === 'computing' ? ' · computing…' : result.state === 'done' ? ` · last computed in ${result.run_ms} ms` : ''}
    </p>
  );
}

export default function CostView({ state, update }: ViewProps) {
  const cost = state.cost;
  const [status, setStatus] = useState<CostStatus>({ state: 'idle' });
  const [result, setResult] = useState<Result>({ state: 'none' });
  const clientRef = useRef<CostClient | null>(null);
  const inputs = useMemo(() => toCostInputs(cost), [cost]);
  const inputsText = JSON.stringify(inputs);
  const memoryText = cost.vs === cost.ratio ? null : JSON.stringify(toMemoryInputs(cost));
  const [memory, setMemory] = useState<OptionsResult<MemoryOutput>>({ state: 'none' });
  const [instances, setInstances] = useState<OptionsResult<InstancesOutput>>({ state: 'none' });
  useReady('cost', true);

  // A view embedding this one (a lesson) reads the answer on screen, with the inputs it answers.
  const listener = useContext(EstimateListenerContext);
  const answeredFor = useRef<string>(inputsText);
  useEffect(() => {
    if (!listener) return;
    listener(result.state === 'done' ? { inputs: JSON.parse(answeredFor.current), estimate: result.estimate } : null);
  }, [listener, result]);

  useEffect(() => {
    const client = new CostClient(setStatus);
    clientRef.current = client;
    client.start().catch(() => {});
    return () => client.close();
  }, []);

  useEffect(() => {
    if (status.state !== 'ready') return;
    let stale = false;
    setResult({ state: 'computing' });
    const timer = setTimeout(async () => {
      const client = clientRef.current!;
      const t0 = performance.now();
      try {
        const [e, s] = await Promise.all([client.run('estimate', JSON.parse(inputsText)), client.run('sensitivity', JSON.parse(inputsText))]);
        if (!stale) answeredFor.current = inputsText;
        if (!stale) setResult({ state: 'done', estimate: JSON.parse(e), sensitivity: JSON.parse(s), run_ms: Math.round(performance.now() - t0) });
      } catch (err) {
        if (stale) return;
        if (err instanceof CostInputError) setResult({ state: 'input-error', message: err.message });
        else setResult({ state: 'failure', message: err instanceof Error ? err.message : String(err) });
      }
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [inputsText, status.state]);

  // Tight vs ample and the instance trade-off: each answers (or fails) on its own, so a ratio
  // the paper has no capacity for never hides the estimate.
  useEffect(() => {
    if (status.state !== 'ready') return;
    let stale = false;
    const ask = <T,>(command: 'memory' | 'instances', text: string | null, set: (r: OptionsResult<T>) => void) => {
      if (text === null) return set({ state: 'none' });
      set({ state: 'computing' });
      clientRef
        .current!.run(command, JSON.parse(text))
        .then((out) => !stale && set({ state: 'done', out: JSON.parse(out) as T }))
        .catch((err: unknown) => !stale && set({ state: 'error', message: err instanceof Error ? err.message : String(err) }));
    };
    const timer = setTimeout(() => {
      ask<MemoryOutput>('memory', memoryText, setMemory);
      ask<InstancesOutput>('instances', inputsText, setInstances);
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [memoryText, inputsText, status.state]);

  // A capacity typed by hand is no longer the priced result's: its source goes with the old value.
  const set = <K extends keyof CostState>(key: K, v: CostState[K]) =>
    update((s) => {
      const source = key.startsWith('cap') ? { [`src${key.slice(3)}`]: null } : key.startsWith('vscap') ? { [`vssrc${key.slice(5)}`]: null } : {};
      return { ...s, cost: { ...s.cost, [key]: v, ...source } };
    });
  const staleForm = stalePriced(cost, 'form');
  const staleVs = stalePriced(cost, 'vs');
  // Back to the setting the stale capacities were priced at, or drop them.
  const restore = (st: StalePriced) =>
    update((s) => ({ ...s, cost: { ...s.cost, wl: st.at.workload as CostState['wl'], vcpus: st.at.vcpus as CostState['vcpus'], ...(st.side === 'form' ? { ratio: st.at.ratio as CostState['ratio'] } : { vs: st.at.ratio as CostState['vs'] }) } }));
  const drop = (st: StalePriced) =>
    update((s) => {
      const next = { ...s.cost };
      for (const e of st.engines) {
        if (st.side === 'form') Object.assign(next, { [`cap${e}`]: null, [`src${e}`]: null });
        else Object.assign(next, { [`vscap${e}`]: null, [`vssrc${e}`]: null });
      }
      return { ...s, cost: next };
    });
  const staleNote = (st: StalePriced | null) =>
    st && (
      <div className="stale-note" role="alert" data-testid={st.side === 'form' ? 'priced-stale' : 'priced-stale-vs'}>
        <p>{staleSentence(st, (e) => ENGINES.find((x) => x.name === e)!.language)}</p>
        <button type="button" onClick={() => restore(st)}>
          Back to {settingWords(st.at)}
        </button>{' '}
        <button type="button" onClick={() => drop(st)}>
          Drop them
        </button>
      </div>
    );
  const sourceLine = (side: Side, e: (typeof ENGINES)[number], st: StalePriced | null) => {
    const cap = side === 'form' ? cost[`cap${e.name}`] : cost[`vscap${e.name}`];
    const src = side === 'form' ? cost[`src${e.name}`] : cost[`vssrc${e.name}`];
    if (st?.engines.includes(e.name)) return `${e.language}: ${capacitySourceWords(cap, src)}, measured at ${settingWords(st.at)}: not this setting, not used (the paper’s value is)`;
    return `${e.language}: ${capacitySourceWords(cap, src)}`;
  };
  // A field that cannot be read leaves the model on the last valid inputs: say the results are stale.
  const { invalid, report } = useInvalidFields();
  const blocked = invalidSentence(invalid);
  const hidden = (k: keyof CostState) => (k === 'pct' && cost.growth !== 'exponential') || (k === 'linear' && cost.growth !== 'linear');

  const sourceOf = (language: string) => {
    const e = ENGINES.find((x) => x.language === language);
    return e && usableCapacity(cost, 'form', e.name) !== null ? capacitySourceWords(cost[`cap${e.name}`], cost[`src${e.name}`]) : null;
  };

  const exportCsv = async () => {
    const text = await clientRef.current!.run('estimate', inputs, 'csv');
    download('replicant-cost-estimate.csv', new Blob([text], { type: 'text/csv;charset=utf-8' }));
  };

  return (
    <div className="cost-view">
      <h1>What would garbage collection cost you?</h1>
      <p className="lede">
        Cloud bill plus development cost, month by month, for a growing key-value service built on each of the paper’s four
        implementations. A cluster serves what the paper measured at p99 ≤ 20 ms; prices are on-demand EC2. The model is the Python
        package <code>cost-model/</code>, running here in your browser.
      </p>
      <StatusLine status={status} result={result} />
      <div className="side-layout">
        <FieldValidityContext.Provider value={report}>
        <form className="cost-form" onSubmit={(e) => e.preventDefault()} aria-label="Cost inputs">
          <div className="presets" role="group" aria-label="Presets">
            {PRESETS.map((p) => (
              <button
                key={p.label}
                type="button"
                onClick={() => update((s) => ({ ...s, cost: applyPreset(s.cost, p) }))}
              >
                {p.label}
              </button>
            ))}
          </div>
          {COST_FORM.map((g) => (
            <fieldset key={g.legend}>
              <legend>{g.legend}</legend>
              <div className="knobs">
                {g.keys
                  .filter((k) => !hidden(k))
                  .map((k) => (
                    <Knob key={k} name={`cost.${k}`} field={COST_FIELDS[k] as never} value={cost[k] as never} onChange={(v) => set(k, v as never)} />
                  ))}
              </div>
              {g.keys.includes('capcpp') && (
                <>
                  <ul className="note capacity-sources" data-testid="capacity-sources" aria-label="Where each capacity comes from">
                    {ENGINES.map((e) => (
                      <li key={e.name} data-testid={`capacity-source-${e.name}`}>
                        {sourceLine('form', e, staleForm)}
                      </li>
                    ))}
                  </ul>
                  {staleNote(staleForm)}
                </>
              )}
              {g.keys.includes('vscapcpp') && (
                <>
                  <ul className="note capacity-sources" data-testid="vs-capacity-sources" aria-label="Where each capacity at the compared ratio comes from">
                    {ENGINES.map((e) => (
                      <li key={e.name} data-testid={`vs-capacity-source-${e.name}`}>
                        {sourceLine('vs', e, staleVs)}
                      </li>
                    ))}
                  </ul>
                  {staleNote(staleVs)}
                </>
              )}
            </fieldset>
          ))}
        </form>
        </FieldValidityContext.Provider>
        <div className={`cost-results${blocked ? ' stale' : ''}`} aria-live="polite" data-stale={blocked ? 'true' : undefined}>
          {blocked && (
            <p className="stale-note" role="alert" data-testid="cost-stale">
              Stale: the results below are for the last inputs the model could read. {blocked}
            </p>
          )}
          {result.state === 'input-error' && (
            <div className="problems" role="alert" data-testid="cost-error">
              <h2>The model cannot use these inputs</h2>
              <p>{result.message}</p>
            </div>
          )}
          {result.state === 'failure' && (
            <div className="problems" role="alert" data-testid="cost-error">
              <h2>Something went wrong</h2>
              <p>{result.message}</p>
            </div>
          )}
          {result.state === 'done' && <CostResults estimate={result.estimate} sensitivity={result.sensitivity} onCsv={exportCsv} inputs={inputs} sourceOf={sourceOf} />}
          {status.state === 'ready' && (
            <>
              <TightVsAmple cost={cost} result={memory} />
              <InstanceTradeoff cost={cost} result={instances} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function CostResults(props: { estimate: EstimateOutput; sensitivity: SensitivityOutput; onCsv: () => Promise<void>; inputs: unknown; sourceOf: (language: string) => string | null }) {
  const { estimate, sensitivity, onCsv, inputs, sourceOf } = props;
  const { gc, non_gc, month, horizon_months } = estimate.break_even;
  const cumulative = useMemo(() => monthSeries(estimate, (m) => m.cumulative_total_usd, 'USD'), [estimate]);
  const instances = useMemo(() => monthSeries(estimate, (m) => m.instances, 'instances'), [estimate]);
  const xAxis = useMemo(() => ({ kind: 'linear' as const, label: 'Month', domain: [1, horizon_months] as [number, number] }), [horizon_months]);
  const usdAxis = useMemo(() => ({ kind: 'linear' as const, label: 'Cumulative cost (USD)', format: (v: number) => usd(v).replace(/\.00 M$/, ' M') }), []);
  const instAxis = useMemo(() => ({ kind: 'linear' as const, label: 'Instances running', format: countText }), []);
  const verticals = useMemo(() => (month === null ? [] : [{ x: month, label: `break-even: month ${month}` }]), [month]);
  const [csvError, setCsvError] = useState<string | null>(null);
  const feasible = LANGUAGES.filter((l) => estimate.languages[l]?.feasible);
  const last = (l: string) => estimate.languages[l]!.months![estimate.languages[l]!.months!.length - 1]!;
  const first = (l: string) => estimate.languages[l]!.months![0]!;
  const instancesSentence = feasible.length
    ? `In month 1 the demand needs ${feasible.map((l) => `${countText(first(l).instances)} ${l}`).join(', ')} instances; by month ${horizon_months}, ${feasible.map((l) => `${countText(last(l).instances)} ${l}`).join(', ')}.`
    : 'No language can meet the SLO with these inputs.';
  const top = sensitivity.table[0];

  return (
    <>
      <p className="headline" data-testid="break-even" data-month={month ?? 'none'}>
        {month === null ? (
          <>
            No break-even within {horizon_months} months: {non_gc} stays dearer than {gc}.
          </>
        ) : (
          <>
            {non_gc} breaks even with {gc} in <strong>month {month}</strong>.
          </>
        )}
      </p>
      <div className="chart-actions">
        <button type="button" onClick={() => onCsv().catch((e: unknown) => setCsvError(String(e)))}>
          Month-by-month CSV
        </button>
        <button type="button" onClick={() => download('replicant-cost-inputs.json', new Blob([JSON.stringify(inputs, null, 2) + '\n'], { type: 'application/json' }))}>
          Inputs (JSON)
        </button>
        <button type="button" onClick={() => download('replicant-cost-estimate.json', new Blob([JSON.stringify(estimate, null, 2) + '\n'], { type: 'application/json' }))}>
          Estimate (JSON)
        </button>
      </div>
      {csvError && <p className="error-text" role="alert">{csvError}</p>}
      {infeasibleNotes(estimate).length > 0 && (
        <ul className="note" data-testid="infeasible">
          {infeasibleNotes(estimate).map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <ChartFrame
        id="cost-cumulative"
        title="Cumulative cost per language (cloud + development)"
        legend={legendOf(cumulative)}
        sentence={breakEvenSentence(estimate)}
        source={`Capacities: ${estimate.sources.capacity_file}; prices: ${estimate.sources.instance.name} at $${estimate.sources.instance.usd_per_hour}/h (${estimate.sources.instance.price_from}, retrieved ${estimate.sources.instance.retrieved_on}); model ${estimate.model.name} ${estimate.model.version}.`}
        csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(cumulative))}
      >
        {(ref) => <XYChart svgRef={ref} title="Cumulative cost per language (cloud + development)" series={cumulative} x={xAxis} y={usdAxis} verticals={verticals} markers={false} />}
      </ChartFrame>
      <ChartFrame
        id="cost-instances"
        title="Instances needed"
        legend={legendOf(instances)}
        sentence={instancesSentence}
        source="Clusters = ⌈demand ÷ capacity per cluster⌉ (at least one); instances = clusters × nodes per cluster."
        csv={() => toCsv(SERIES_CSV_HEADER, seriesCsvRows(instances))}
      >
        {(ref) => <XYChart svgRef={ref} title="Instances needed" series={instances} x={xAxis} y={instAxis} markers={false} />}
      </ChartFrame>
      <h2>Per language</h2>
      <table className="data" data-testid="cost-table">
        <thead>
          <tr>
            <th>Language</th>
            <th className="num">Capacity / cluster (ops/s)</th>
            <th>From</th>
            <th className="num">Effort ×</th>
            <th className="num">Peak instances</th>
            <th className="num">Cloud</th>
            <th className="num">Development</th>
            <th className="num">Total</th>
          </tr>
        </thead>
        <tbody>
          {LANGUAGES.filter((l) => estimate.languages[l]).map((l) => {
            const r = estimate.languages[l]!;
            return (
              <tr key={l}>
                <th scope="row">{l}</th>
                {r.feasible && r.totals ? (
                  <>
                    <td className="num">{r.capacity_ops_per_s_per_cluster?.toLocaleString('en-US')}</td>
                    <td className="mono note">{sourceOf(l) ?? ((r.capacity_rows ?? []).join(', ') || r.capacity_from)}</td>
                    <td className="num">{r.effort_multiplier}</td>
                    <td className="num">{countText(r.totals.peak_instances)}</td>
                    <td className="num">{usd(r.totals.cloud_usd)}</td>
                    <td className="num">{usd(r.totals.dev_usd)}</td>
                    <td className="num">{usd(r.totals.total_usd)}</td>
                  </>
                ) : (
                  <td colSpan={7}>cannot meet the SLO: {r.reason}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <h2>Which input moves the break-even most?</h2>
      <p data-testid="sensitivity-sentence">
        {top
          ? `Moving each input ${sensitivity.perturbation_pct} % down and up, one at a time, the ${inputWords(top.input)} moves the break-even most: from month ${top.break_even_month_low ?? 'never'} to ${top.break_even_month_high ?? 'never'} (base: ${sensitivity.base_break_even_month ?? 'never'}).`
          : 'No input to vary.'}
      </p>
      <table className="data" data-testid="sensitivity-table">
        <thead>
          <tr>
            <th>Input</th>
            <th className="num">Low</th>
            <th className="num">Break-even</th>
            <th className="num">Base</th>
            <th className="num">High</th>
            <th className="num">Break-even</th>
            <th className="num">Swing (months)</th>
          </tr>
        </thead>
        <tbody>
          {sensitivity.table.map((r) => (
            <tr key={r.input}>
              <td>{inputWords(r.input)}</td>
              <td className="num">{r.low_value.toLocaleString('en-US')}</td>
              <td className="num">{r.break_even_month_low ?? 'never'}</td>
              <td className="num">{r.base_value.toLocaleString('en-US')}</td>
              <td className="num">{r.high_value.toLocaleString('en-US')}</td>
              <td className="num">{r.break_even_month_high ?? 'never'}</td>
              <td className="num">{r.swing_months}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">{sensitivity.ranking_rule}.</p>
      <h2>Assumptions</h2>
      <ul>
        {estimate.assumptions.map((a) => (
          <li key={a}>{a}</li>
        ))}
        {Object.entries(estimate.sources.defaults)
          .filter(([, v]) => v.startsWith('assumption'))
          .map(([k, v]) => (
            <li key={k}>
              <code>{k}</code>: {v}
            </li>
          ))}
      </ul>
    </>
  );
}
