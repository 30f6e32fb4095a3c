// `npm run validate --workspace @replicant/lessons`: every lesson checked, every problem listed.
import { formatError, loadLessons } from '../validate.ts';
import { paper, readLessonFolders } from './load-dir.ts';

const { lessons, errors } = loadLessons(readLessonFolders(), paper());
for (const e of errors) console.error(formatError(e));
console.log(`${lessons.length} lessons valid, ${errors.length} problems`);
process.exit(errors.length ? 1 : 0);
