import { describe, expect, it } from 'vitest';
import { catalogueFromJson, catalogueToJson } from './catalogue.ts';
import { buildCatalogue } from './node/build-catalogue.ts';
import { loadLessons } from './validate.ts';
import { paper, readLessonFolders } from './node/load-dir.ts';
import { expressions } from './template.ts';

describe('the catalogue the web lab bundles', () => {
  const json = JSON.parse(JSON.stringify(buildCatalogue()));
  const catalogue = catalogueFromJson(json);
  const direct = loadLessons(readLessonFolders(), paper());

  it('holds every lesson as the validator loads it, through JSON and back', () => {
    expect(catalogue.errors).toEqual(direct.errors);
    expect(catalogue.lessons.map((l) => l.folder)).toEqual(direct.lessons.map((l) => l.folder));
    for (const [k, l] of catalogue.lessons.entries()) {
      expect(l.scenario).toEqual(direct.lessons[k]!.scenario);
      expect([...l.sections.entries()]).toEqual([...direct.lessons[k]!.sections.entries()]);
    }
  });

  it('carries every paper row a lesson names, and not the whole data set', () => {
    const full = paper();
    const named = new Set<string>();
    for (const l of direct.lessons) {
      const texts = [JSON.stringify(l.scenario), ...[...l.sections.values()].map((s) => s.body)];
      for (const t of texts) for (const e of expressions(t)) if (e.startsWith('paper:')) named.add(e.slice(6));
      for (const s of l.scenario.steps) {
        for (const id of s.panel?.cites ?? []) named.add(id);
        for (const c of [...(s.checkpoints ?? []), ...(s.exercise?.done_when ?? [])]) {
          if (c.check === 'paper') named.add(c.id);
          if ((c.check === 'paper' || c.check === 'model') && typeof c.to === 'string') named.add(c.to);
        }
      }
    }
    expect(named.size).toBeGreaterThan(10);
    for (const id of named) expect(catalogue.paper.get(id), id).toEqual(full.get(id));
    expect(catalogue.paper.size).toBeLessThan(full.size);
  });

  it('keeps a broken lesson out with its error, the others in', () => {
    const folders = readLessonFolders();
    const broken = folders.map((f, i) => (i === 0 ? { ...f, scenario: '{ "number": 1,' } : f));
    const c = catalogueFromJson(JSON.parse(JSON.stringify(catalogueToJson(loadLessons(broken, paper()), paper(), []))));
    expect(c.errors[0]?.file).toBe(`${folders[0]!.folder}/scenario.json`);
    expect(c.lessons.length).toBe(folders.length - 1);
  });
});
