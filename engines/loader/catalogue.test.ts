import { describe, expect, it } from 'vitest';
import { ENGINES, ENGINE_NAMES, LANGUAGES, engineOfLanguage, isEngineName, languageOf } from './catalogue.ts';

describe('engine catalogue', () => {
  it('names each engine, language, colour, marker and dash once', () => {
    for (const key of ['name', 'language', 'colour', 'marker', 'dash'] as const) {
      expect(new Set(ENGINES.map((e) => e[key])).size, key).toBe(ENGINES.length);
    }
  });
  it('maps engines and languages both ways, in the paper’s order', () => {
    expect(LANGUAGES).toEqual(['C++', 'Java', 'Go', 'Rust']);
    for (const name of ENGINE_NAMES) expect(engineOfLanguage(languageOf(name))).toBe(name);
    expect(engineOfLanguage('etcd')).toBeUndefined();
    expect(isEngineName('go')).toBe(true);
    expect(isEngineName('etcd')).toBe(false);
  });
});
