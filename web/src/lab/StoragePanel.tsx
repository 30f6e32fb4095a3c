// The durability knob's result: each engine's run with durability against the same run without,
// what the disk model did, and the modelled recovery times, with FLEET's stated numbers beside
// them. The numbers come from storage-results.ts; this only lays them out.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { RunResult } from '@replicant/sim/api';
import { formatValue } from '../paper/panel-model.ts';
import { FLEET_CITATION, deviceWords, placementWords, recoverySentence, storageRow, storageSentence } from './storage-results.ts';

export type StorageRuns = { engine: EngineName; durable: RunResult; volatile: RunResult };

export function StoragePanel({ runs, lang }: { runs: StorageRuns[]; lang: (e: EngineName) => string }) {
  const stats = runs[0]?.durable.storage;
  if (!stats) return null;
  const rows = runs.map((r) => storageRow(r.engine, r.durable, r.volatile));
  return (
    <section className="chart-frame" data-testid="lab-storage" aria-label="What durability cost">
      <h3>
        Durability: {placementWords(stats.durability)} on {deviceWords(stats.device)}
      </h3>
      <p className="chart-sentence" data-testid="lab-storage-sentence">
        {storageSentence(rows, stats, lang)}
      </p>
      <table className="data" data-testid="lab-storage-table">
        <thead>
          <tr>
            <th>Engine</th>
            <th>p50 without → with (ms)</th>
            <th>p99 without → with (ms)</th>
            <th>Achieved (ops/s)</th>
            <th>Mean flush (ms)</th>
            <th>Persists per flush</th>
            <th>Replay from disk (s)</th>
            <th>State transfer (s)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.engine} data-testid={`storage-${r.engine}`}>
              <td>{lang(r.engine)} · simulated</td>
              <td className="num">
                {formatValue(r.volatile_p50_ms)} → {formatValue(r.p50_ms)}
              </td>
              <td className="num">
                {formatValue(r.volatile_p99_ms)} → {formatValue(r.p99_ms)}
              </td>
              <td className="num">{Math.round(r.achieved_ops_per_s)}</td>
              <td className="num">{formatValue(r.flush_mean_ms)}</td>
              <td className="num">{formatValue(r.persists_per_flush)}</td>
              <td className="num">{formatValue(r.replay_s)}</td>
              <td className="num">{formatValue(r.snapshot_s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="chart-sentence" data-testid="lab-storage-recovery">
        {recoverySentence(rows, stats, lang)}
      </p>
      <p className="chart-source" data-testid="lab-storage-source">
        Simulated, model card {runs[0]!.durable.model_card_version}, storage model {stats.model_version}; each engine ran twice with the
        same seed and load, with and without durability. Device parameters are the card’s storage entries (assumed unless noted). FLEET’s
        numbers: {FLEET_CITATION}, data/fleet.
      </p>
    </section>
  );
}
