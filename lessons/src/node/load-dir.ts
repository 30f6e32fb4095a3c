// Reads the lesson folders from disk (tests and the CLI; the web app bundles them instead).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import paperResults from '@replicant/data/paper/paper-results.json' with { type: 'json' };
import type { ResultsFile } from '@replicant/data/results';
import { paperIndex, type PaperIndex } from '../paper.ts';
import type { LessonFiles } from '../validate.ts';

export const LESSONS_DIR = fileURLToPath(new URL('../../', import.meta.url));

export function readLessonFolders(dir = LESSONS_DIR): LessonFiles[] {
  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : null);
  return readdirSync(dir)
    .filter((name) => /^\d{2}-/.test(name) && statSync(join(dir, name)).isDirectory())
    .map((folder) => ({ folder, markdown: read(join(dir, folder, 'lesson.md')), scenario: read(join(dir, folder, 'scenario.json')) }));
}

export function paper(): PaperIndex {
  return paperIndex(paperResults as ResultsFile);
}
