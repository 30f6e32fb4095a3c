// Node only: reads the files of the manifest from a checkout, for installCostModel().
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_FILES } from './manifest.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function readRepoFiles(repoRoot = REPO_ROOT, list = ALL_FILES) {
  return Object.fromEntries(list.map((rel) => [rel, fs.readFileSync(path.join(repoRoot, rel), 'utf8')]));
}
