// The catalogue the web lab bundles (src/catalogue.ts), built from the lesson folders on disk
// with the same validator `npm test` runs.
import { catalogueToJson, type CatalogueJson } from '../catalogue.ts';
import { loadLessons } from '../validate.ts';
import { LESSONS_DIR, paper, readLessonFolders } from './load-dir.ts';

export function buildCatalogue(dir = LESSONS_DIR): CatalogueJson {
  const folders = readLessonFolders(dir);
  const index = paper();
  const sources = folders.flatMap((f) => [f.markdown ?? '', f.scenario ?? '']);
  return catalogueToJson(loadLessons(folders, index), index, sources);
}
