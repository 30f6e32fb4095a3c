// The lesson catalogue as plain JSON: every lesson validated ahead of time (at build time, in
// Node), with its errors and just the paper rows the lessons cite. The web lab ships this
// instead of the validator (and its JSON-schema library) and the whole paper data set, so a
// lesson's first paint carries only what it shows. One shape, written and read here.
import type { Lesson, LessonError, LessonSection, Scenario } from './format.ts';
import type { PaperFact, PaperIndex } from './paper.ts';

export interface CatalogueJson {
  lessons: { folder: string; scenario: Scenario; title: string; sections: [string, LessonSection][] }[];
  errors: LessonError[];
  /** The paper rows any lesson file names (a superset of what the lessons need). */
  paper: PaperFact[];
}

export interface Catalogue {
  lessons: Lesson[];
  errors: LessonError[];
  paper: PaperIndex;
}

/**
 * `sources` are the lesson files' raw texts: a paper row is kept when its id appears in one of
 * them (as a placeholder, a checkpoint, a citation), so nothing a lesson can name is left out.
 */
export function catalogueToJson(loaded: { lessons: Lesson[]; errors: LessonError[] }, paper: PaperIndex, sources: readonly string[]): CatalogueJson {
  const named = (id: string) => sources.some((text) => text.includes(id));
  return {
    lessons: loaded.lessons.map((l) => ({ folder: l.folder, scenario: l.scenario, title: l.title, sections: [...l.sections.entries()] })),
    errors: loaded.errors,
    paper: [...paper.values()].filter((f) => named(f.id)),
  };
}

export function catalogueFromJson(json: CatalogueJson): Catalogue {
  return {
    lessons: json.lessons.map((l) => ({ folder: l.folder, scenario: l.scenario, title: l.title, sections: new Map(l.sections) })),
    errors: json.errors,
    paper: new Map(json.paper.map((f) => [f.id, f])),
  };
}
