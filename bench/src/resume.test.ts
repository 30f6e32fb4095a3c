import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlan, resolveOptions } from './plan.ts';
import { finishedEarlier, ResumeError } from './resume.ts';

const command = 'npm run bench -- --engine cpp,go --workload b --ratio 8,2 --out x --preset smoke';
const settings = buildPlan(resolveOptions({ preset: 'smoke', engine: 'cpp,go', workload: 'b', ratio: '8,2' }));
const dirs: string[] = [];
function runDir(recorded: string | null, finishedIds: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-resume-'));
  dirs.push(dir);
  if (recorded !== null) writeFileSync(join(dir, 'results.json'), JSON.stringify({ metadata: { command: recorded }, rows: [] }));
  mkdirSync(join(dir, 'details'));
  for (const id of finishedIds) {
    const s = settings.find((x) => x.id === id)!;
    writeFileSync(join(dir, 'details', `${id}.jsonl`), JSON.stringify({ type: 'setting', setting: s, started_at: '2026-11-27T00:52:09Z', best: null }) + '\n' + JSON.stringify({ type: 'probe', kind: 'saturation', target_ops_per_s: 100 }) + '\n');
  }
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('finishedEarlier', () => {
  it('keeps the settings whose details an earlier run of the same command wrote, and only those', () => {
    expect(settings.map((s) => s.id)).toEqual(['cpp-b-r8-8vcpu-rep1', 'go-b-r8-8vcpu-rep1', 'cpp-b-r2-8vcpu-rep1', 'go-b-r2-8vcpu-rep1']);
    const dir = runDir(command, ['cpp-b-r8-8vcpu-rep1', 'go-b-r8-8vcpu-rep1']);
    const done = finishedEarlier(dir, settings, command);
    expect([...done.keys()]).toEqual(['cpp-b-r8-8vcpu-rep1', 'go-b-r8-8vcpu-rep1']);
    expect(done.get('cpp-b-r8-8vcpu-rep1')!.probes).toHaveLength(1);
    // --dry-run does not change what the run measures, nor does the order of the flags
    expect(finishedEarlier(dir, settings, `${command} --dry-run`).size).toBe(2);
    expect(finishedEarlier(dir, settings, 'npm run bench -- --preset smoke --out x --ratio 8,2 --workload b --engine cpp,go').size).toBe(2);
  });

  it('starts afresh in a new or empty folder', () => {
    expect(finishedEarlier(join(tmpdir(), 'bench-resume-none-here'), settings, command).size).toBe(0);
    expect(finishedEarlier(runDir(null, []), settings, command).size).toBe(0);
  });

  it('refuses a folder another command wrote, and a details file of another setting', () => {
    const other = runDir(command.replace('--ratio 8,2', '--ratio 8'), ['cpp-b-r8-8vcpu-rep1']);
    expect(() => finishedEarlier(other, settings, command)).toThrow(ResumeError);
    expect(() => finishedEarlier(other, settings, command)).toThrow(/written by another command .*--ratio 8 /);
    const swapped = runDir(command, ['cpp-b-r8-8vcpu-rep1']);
    writeFileSync(join(swapped, 'details', 'go-b-r2-8vcpu-rep1.jsonl'), JSON.stringify({ type: 'setting', setting: settings[0], started_at: 'x' }) + '\n');
    expect(() => finishedEarlier(swapped, settings, command)).toThrow(/holds setting cpp-b-r8-8vcpu-rep1, not go-b-r2-8vcpu-rep1/);
    const broken = runDir(command, []);
    writeFileSync(join(broken, 'details', 'go-b-r8-8vcpu-rep1.jsonl'), '{not json\n');
    expect(() => finishedEarlier(broken, settings, command)).toThrow(/remove it to measure go-b-r8-8vcpu-rep1 again/);
    const garbled = runDir(null, []);
    writeFileSync(join(garbled, 'results.json'), '{');
    expect(() => finishedEarlier(garbled, settings, command)).toThrow(/not a readable results file/);
  });
});
