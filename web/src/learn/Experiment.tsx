// A step's experiment: the knobs the step lets the student turn (engine, memory ratio, vCPUs,
// offered load), a button that runs a small seeded simulation in the simulation worker, and
// what the run measured — labelled as simulated, with the model card's version.
import { useState } from 'react';
import { languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import { EXPERIMENT_KNOBS, MITIGATION_LABEL, describeSettings, experimentDefaults, formatSimMetric, type Experiment as ExperimentSpec, type ExperimentKnob, type ExperimentSettings, type SimReading } from '@replicant/lessons/src/experiment';

const KNOB_LABEL: Record<ExperimentKnob, string> = { engine: 'Engine', ratio: 'Memory:data ratio', vcpus: 'vCPUs per node', target_ops_per_s: 'Offered load (ops/s)', mitigation: 'GC mitigation' };

export interface ExperimentStatus {
  state: 'idle' | 'running' | 'done' | 'failed';
  message?: string;
  settings?: ExperimentSettings;
}

export function Experiment({ experiment, status, reading, onRun }: { experiment: ExperimentSpec; status: ExperimentStatus; reading: SimReading | null; onRun: (change: Partial<ExperimentSettings>) => void }) {
  const [choice, setChoice] = useState<Partial<ExperimentSettings>>({});
  const knobs = EXPERIMENT_KNOBS.filter((k) => experiment.vary[k]);
  const own = experimentDefaults(experiment);
  const value = (k: ExperimentKnob) => String(choice[k] ?? own[k]);
  const label = (k: ExperimentKnob, v: string | number) => (k === 'engine' ? languageOf(v as EngineName) : k === 'mitigation' ? MITIGATION_LABEL[v as keyof typeof MITIGATION_LABEL] : String(v));
  return (
    <section className="experiment" aria-label="Experiment" data-testid="experiment">
      <h3>Experiment (simulated)</h3>
      <p className="note">
        A 3-node cluster under YCSB workload A in an open loop, {experiment.duration_s} simulated seconds after a second of warm-up, seed {experiment.seed}. Fixed here:{' '}
        {EXPERIMENT_KNOBS.filter((k) => !experiment.vary[k] && !(k === 'mitigation' && own.mitigation === 'none'))
          .map((k) => `${KNOB_LABEL[k].toLowerCase()} ${label(k, own[k])}`)
          .join(', ')}
        .
      </p>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          onRun(choice);
        }}
      >
        {knobs.map((k) => (
          <label key={k} className="knob">
            <span>{KNOB_LABEL[k]}</span>
            <select
              value={value(k)}
              data-testid={`experiment-${k}`}
              onChange={(e) => setChoice((c) => ({ ...c, [k]: k === 'engine' || k === 'mitigation' ? e.target.value : Number(e.target.value) }))}
            >
              {(experiment.vary[k] as (string | number)[]).map((v) => (
                <option key={v} value={String(v)}>
                  {label(k, v)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" disabled={status.state === 'running'} data-testid="experiment-run">
          Run the simulator
        </button>
      </form>
      <p role="status" data-testid="experiment-status" data-state={status.state} data-settings={status.settings ? describeSettings(status.settings) : ''}>
        {status.state === 'running' && (
          <>
            <span className="spinner" aria-hidden="true" /> Simulating {describeSettings(status.settings!)}…
          </>
        )}
        {status.state === 'failed' && <span className="error-text">The run failed: {status.message}</span>}
        {status.state !== 'running' && reading && (
          <span data-testid="experiment-reading">
            Simulated (model card {reading.model_card_version}), {describeSettings(reading.settings)}: p99 {formatSimMetric('p99_ms', reading.p99_ms)} from each request's intended start, {formatSimMetric('service_p99_ms', reading.service_p99_ms)}{' '}
            as service time (what a closed loop sees); mean {formatSimMetric('mean_ms', reading.mean_ms)}; {formatSimMetric('achieved_ops_per_s', reading.achieved_ops_per_s)} achieved; the leader's vCPUs{' '}
            {formatSimMetric('leader_cpu_utilization', reading.leader_cpu_utilization)} busy, {formatSimMetric('leader_gc_cpu_share', reading.leader_gc_cpu_share)} on GC ({reading.gc_events} collections).
            {reading.gc_off_p999_ms !== null && (
              <>
                {' '}
                p99.9 {formatSimMetric('p999_ms', reading.p999_ms)}; the same run with the collector off: p99.9 {formatSimMetric('gc_off_p999_ms', reading.gc_off_p999_ms)} ({formatSimMetric('p999_vs_gc_off', reading.p999_vs_gc_off)}).{' '}
                {MITIGATION_LABEL[reading.settings.mitigation]}: {reading.handoffs} leadership handoffs, {reading.busy_replies} busy replies ({reading.busy_retries_served_elsewhere} retries answered by another replica,{' '}
                {reading.busy_retries_redirected_back} sent back to the leader).
              </>
            )}
          </span>
        )}
        {status.state === 'idle' && !reading && 'Not run yet at this step.'}
      </p>
    </section>
  );
}
