// Every lesson folder in the repository, bundled at build time and checked by the same
// validator `npm test` runs: a broken lesson is listed with its error; the others still load.
import paperResultsJson from '@replicant/data/paper/paper-results.json';
import { loadLessons, paperIndex, type LessonFiles } from '@replicant/lessons';

const MARKDOWN = import.meta.glob('@replicant/lessons/files/*/lesson.md', { eager: true, query: '?raw', import: 'default' }) as Record<string, string>;
const SCENARIOS = import.meta.glob('@replicant/lessons/files/*/scenario.json', { eager: true, query: '?raw', import: 'default' }) as Record<string, string>;

function folderOf(path: string): string {
  const parts = path.split('/');
  return parts[parts.length - 2]!;
}

function files(): LessonFiles[] {
  const folders = new Set([...Object.keys(MARKDOWN), ...Object.keys(SCENARIOS)].map(folderOf));
  const find = (all: Record<string, string>, folder: string) => Object.entries(all).find(([p]) => folderOf(p) === folder)?.[1] ?? null;
  return [...folders].map((folder) => ({ folder, markdown: find(MARKDOWN, folder), scenario: find(SCENARIOS, folder) }));
}

export const PAPER = paperIndex(paperResultsJson as never);
export const CATALOGUE = loadLessons(files(), PAPER);
