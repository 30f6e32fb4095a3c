// Resuming a stopped run: the same `npm run bench -- … --out DIR` again measures only what the
// earlier run did not finish. A setting is finished when its details file (DIR/details/<id>.jsonl,
// written right after it, before results.json) is there; its result is read back and its rows
// derived again as for the settings measured now, so the rewritten results.json holds both.
// Removing a setting's details file makes the next run measure it again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingResult } from './measure.ts';
import type { Setting } from './plan.ts';
import { readDetails } from './rederive.ts';

export class ResumeError extends Error {}

/** The command a run records as its flags with their values, in any order, without the flags
 * that do not change what it measures. */
function sameRun(command: string): string {
  const groups: string[] = [];
  for (const a of command.replace(/^npm run bench --\s*/, '').split(/\s+/).filter(Boolean)) {
    if (a.startsWith('--') || !groups.length) groups.push(a);
    else groups[groups.length - 1] += ` ${a}`;
  }
  return groups.filter((g) => g !== '--dry-run').sort().join(' ');
}

/**
 * The settings of `settings` that an earlier run into `outDir` finished, by id. Refuses a folder
 * whose results.json was written by another command: its settings were measured with other
 * options and cannot share a file with these.
 */
export function finishedEarlier(outDir: string, settings: Setting[], command: string): Map<string, SettingResult> {
  const done = new Map<string, SettingResult>();
  const resultsPath = join(outDir, 'results.json');
  if (existsSync(resultsPath)) {
    let recorded: string | undefined;
    try {
      recorded = (JSON.parse(readFileSync(resultsPath, 'utf8')) as { metadata?: { command?: string } }).metadata?.command;
    } catch (e) {
      throw new ResumeError(`${resultsPath} is not a readable results file (${(e as Error).message}): move it away or give another --out`);
    }
    if (recorded === undefined || sameRun(recorded) !== sameRun(command)) {
      throw new ResumeError(`${resultsPath} was written by another command (${recorded ?? 'none recorded'}); a run resumes only with the command that started it: run that, or give another --out`);
    }
  }
  for (const s of settings) {
    const path = join(outDir, 'details', `${s.id}.jsonl`);
    if (!existsSync(path)) continue;
    let r: SettingResult;
    try {
      r = readDetails(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new ResumeError(`${path}: ${(e as Error).message}; remove it to measure ${s.id} again`);
    }
    if (r.setting?.id !== s.id) throw new ResumeError(`${path} holds setting ${r.setting?.id}, not ${s.id}; remove it to measure ${s.id} again`);
    done.set(s.id, r);
  }
  return done;
}
