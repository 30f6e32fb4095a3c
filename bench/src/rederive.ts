// `npm run bench -- rederive RESULTS.json…`: rebuilds a results file's rows from the details it
// was written with (details/*.jsonl beside it: every setting's result, probe and node) by
// today's derivation — after a rule of it changed (issue 16: a setting whose nodes were
// OOM-killed read "clean, < 0.1"). The measurements are not touched; only the derived rows.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { SettingResult } from './measure.ts';
import type { BenchOptions } from './plan.ts';
import { combineRepetitions, resultsFile, settingRows, type ResultRow, type ResultsFile } from './results.ts';

type SettingSummary = Omit<SettingResult, 'probes' | 'nodes'>;

/** One setting's result as its details file holds it (the inverse of detailsLines, without the
 * histograms and usage timelines that file leaves out). */
export function readDetails(text: string): SettingResult {
  let summary: SettingSummary | null = null;
  const probes: SettingResult['probes'] = [];
  const nodes: SettingResult['nodes'] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let parsed: { type?: unknown } & Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch (e) {
      throw new Error(`details line ${i + 1} is not JSON: ${(e as Error).message}`);
    }
    const { type, ...rest } = parsed;
    if (type === 'setting') summary = rest as unknown as SettingSummary;
    else if (type === 'probe') probes.push(rest as unknown as SettingResult['probes'][number]);
    else if (type === 'node') nodes.push(rest as unknown as SettingResult['nodes'][number]);
    else throw new Error(`details line ${i + 1} has an unknown type ${JSON.stringify(type)}`);
  }
  if (!summary) throw new Error('details hold no setting line');
  return { ...summary, probes, nodes } as SettingResult;
}

/**
 * The file with its rows derived again from `detailsDir`'s settings, in the order they ran, with
 * the metadata kept. `repo` is what raw_output paths are relative to. With `only` (details ids,
 * "go-a-r8-8vcpu-rep2"), just those settings: a part of a run scored on its own, such as the
 * chunk run after a model card was made; the description names them.
 */
export function rederive(file: ResultsFile, o: BenchOptions, detailsDir: string, repo: string, only?: string[]): ResultsFile {
  const present = readdirSync(detailsDir).filter((f) => f.endsWith('.jsonl'));
  if (only) {
    const missing = only.filter((id) => !present.includes(`${id}.jsonl`));
    if (missing.length) throw new Error(`no details for ${missing.join(', ')} in ${detailsDir}`);
  }
  const results = (only ? only.map((id) => `${id}.jsonl`) : present)
    .map((f) => ({ path: join(detailsDir, f), result: readDetails(readFileSync(join(detailsDir, f), 'utf8')) }))
    .sort((a, b) => a.result.started_at.localeCompare(b.result.started_at));
  if (!results.length) throw new Error(`no details (*.jsonl) in ${detailsDir}`);
  const rows: ResultRow[] = results.flatMap(({ path, result }) => settingRows(result, o, relative(repo, path)));
  const metadata = only
    ? { ...file.metadata, description: `${file.metadata.description} Only ${only.length} of its settings, derived again from their details: ${only.join(', ')}.` }
    : file.metadata;
  return resultsFile(metadata, combineRepetitions(rows));
}

/** The details folder of a results file: details/ beside it. */
export function detailsDirOf(resultsPath: string): string {
  return join(dirname(resultsPath), 'details');
}
