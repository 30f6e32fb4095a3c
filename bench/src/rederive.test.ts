import { mkdtempSync, mkdirSync, copyFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from './plan.ts';
import { readDetails, rederive } from './rederive.ts';
import { settingRows, settingStatus, type ResultsFile } from './results.ts';
import { summarize } from './summary.ts';
import { BENCH_DIR } from './ycsb.ts';

// The committed run where Rust was OOM-killed at ratio 2 in every repetition (issue 16): its
// summary read "clean (3/3)" and "< 0.1", as if the cluster had run and missed the SLO.
const REPO = join(BENCH_DIR, '..');
const RUN = join(REPO, 'data/native/2026-11-27-ratio8-tail/ratios-b');
const o = resolveOptions({ engine: 'go,java,rust', workload: 'b', ratio: '8,2', vcpus: '8', preset: 'scaled', 'slo-ms': '50', 'max-probes': '3', repetitions: '3' });
const details = (id: string) => readDetails(readFileSync(join(RUN, 'details', `${id}.jsonl`), 'utf8'));

describe('a setting whose nodes were OOM-killed and that completed nothing', () => {
  it('is failed, with the OOM kills as its evidence and no rate', () => {
    for (const rep of [1, 2, 3]) {
      const r = details(`rust-b-r2-8vcpu-rep${rep}`);
      expect(settingStatus(r)).toBe('failed');
      const rows = settingRows(r, o, 'details.jsonl');
      const status = rows.find((x) => x.metric === 'measurement_status')!;
      expect(status.value).toBe('failed');
      expect(status.note).toMatch(/OOM kills per node at the end: \d\/\d\/\d/);
      expect(status.note).toMatch(/restarted the cluster after a node exited \(OOM kills/);
      expect(rows.find((x) => x.metric === 'max_throughput_slo')).toBeUndefined();
    }
  });

  it('keeps the settings that ran as they were', () => {
    expect(settingStatus(details('rust-b-r8-8vcpu-rep1'))).toBe('clean');
    // Java at ratio 2 ran and missed the SLO at 100 ops/s on a clean probe: a real "< 0.1"
    expect(settingStatus(details('java-b-r2-8vcpu-rep2'))).toBe('clean');
    expect(settingStatus(details('java-b-r2-8vcpu-rep1'))).toBe('disturbed');
  });

  it('reads "failed (0/3)" in the summary once the committed rows are derived again', () => {
    // a copy: the test must not rewrite the committed file
    const dir = mkdtempSync(join(tmpdir(), 'rederive-'));
    mkdirSync(join(dir, 'details'));
    for (const f of readdirSync(join(RUN, 'details'))) copyFileSync(join(RUN, 'details', f), join(dir, 'details', f));
    const committed = JSON.parse(readFileSync(join(RUN, 'results.json'), 'utf8')) as ResultsFile;
    const after = rederive(committed, o, join(dir, 'details'), REPO);
    const table = summarize(after);
    expect(table).toMatch(/\| rust-b-r2-8vcpu \| failed \(0\/3\) \|/);
    expect(table).not.toMatch(/\| rust-b-r2-8vcpu \| clean/);
    expect(table).toMatch(/- rust-b-r2-8vcpu: 0 of 3 repetition\(s\) clean; rep 1: failed — no rate could be decided: the setting failed: .*OOM kills/);
    // every other setting keeps its status word
    const statusOf = (f: ResultsFile) => new Map(f.rows.filter((x) => x.metric === 'measurement_status').map((x) => [x.id, x.value]));
    const [old, now] = [statusOf(committed), statusOf(after)];
    expect([...now.keys()].sort()).toEqual([...old.keys()].sort());
    for (const [id, v] of now) if (id !== 'rust-b-r2-8vcpu-measurement-status') expect([id, v]).toEqual([id, old.get(id)]);
  });
});

describe('a part of a run, derived on its own (rederive --only)', () => {
  // chunk 2 of the quiet reference run: these two ran after machine card 0.5.0 was made
  const QUIET = join(REPO, 'data/native/2026-11-27-reference/ratios-a');
  const committed = JSON.parse(readFileSync(join(QUIET, 'results.json'), 'utf8')) as ResultsFile;
  const oA = resolveOptions({ engine: 'go,cpp,rust,java', workload: 'a', ratio: '8,2,1.5,1.25', vcpus: '8', preset: 'scaled', 'slo-ms': '50' });

  it('holds only the named settings, one repetition each, and says which in its description', () => {
    const part = rederive(committed, oA, join(QUIET, 'details'), REPO, ['go-a-r8-8vcpu-rep2', 'java-a-r1p25-8vcpu-rep1']);
    const status = part.rows.filter((x) => x.metric === 'measurement_status');
    expect(status.map((x) => x.id).sort()).toEqual(['go-a-r8-8vcpu-measurement-status', 'java-a-r1p25-8vcpu-measurement-status']);
    for (const s of status) expect(s.repetitions ?? 1).toBe(1);
    expect(part.rows.every((x) => /rep2|java-a-r1p25-8vcpu-rep1/.test(x.provenance.raw_output ?? ''))).toBe(true);
    expect(part.metadata.description).toMatch(/Only 2 of its settings, derived again from their details: go-a-r8-8vcpu-rep2, java-a-r1p25-8vcpu-rep1\.$/);
    // the whole run's file keeps every repetition of Go at ratio 8 (two when this was written; the
    // run goes on, so not a fixed count)
    expect(committed.rows.find((x) => x.id === 'go-a-r8-8vcpu-measurement-status')!.repetitions).toBeGreaterThan(1);
  });

  it('refuses a setting the run has no details for, by name', () => {
    // a repetition the plan never runs (3 a setting), so later chunks cannot supply it
    expect(() => rederive(committed, oA, join(QUIET, 'details'), REPO, ['go-a-r8-8vcpu-rep9'])).toThrow(/no details for go-a-r8-8vcpu-rep9/);
  });
});
