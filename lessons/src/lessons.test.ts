import { describe, expect, it } from 'vitest';
import { formatError, loadLessons } from './validate.ts';
import { paper, readLessonFolders } from './node/load-dir.ts';

describe('the lessons in this repository', () => {
  it('all validate against the schema and their own rules', () => {
    const { lessons, errors } = loadLessons(readLessonFolders(), paper());
    expect(errors.map(formatError)).toEqual([]);
    expect(lessons.length).toBeGreaterThanOrEqual(1);
  });
});
