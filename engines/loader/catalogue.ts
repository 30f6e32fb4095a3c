// The four engines as every part of the project names, orders and draws them: one entry per
// engine, in the one order used everywhere (the paper's: C++, Java, Go, Rust). The simulator,
// the benchmarks, the data files and the web lab all read these entries; nothing else maps an
// engine to its language or colour.

/** The paper's language names (rows under data/ use these). */
export type Language = 'C++' | 'Java' | 'Go' | 'Rust';

export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond' | 'cross';

export interface EngineInfo {
  readonly name: string;
  readonly language: Language;
  /** Whether the language's runtime collects garbage (the paper's question). */
  readonly gc: boolean;
  /** Okabe–Ito colour: distinguishable under the common colour-vision deficiencies. */
  readonly colour: string;
  /** Every engine also has its own marker and dash, so no chart depends on colour alone. */
  readonly marker: MarkerShape;
  /** SVG stroke-dasharray; '' is solid. */
  readonly dash: string;
}

export const ENGINES = [
  { name: 'cpp', language: 'C++', gc: false, colour: '#0072B2', marker: 'square', dash: '' }, // Okabe–Ito blue
  { name: 'java', language: 'Java', gc: true, colour: '#E69F00', marker: 'circle', dash: '6 3' }, // orange
  { name: 'go', language: 'Go', gc: true, colour: '#009E73', marker: 'triangle', dash: '2 2' }, // bluish green
  { name: 'rust', language: 'Rust', gc: false, colour: '#D55E00', marker: 'diamond', dash: '8 3 2 3' }, // vermillion
] as const satisfies readonly EngineInfo[];

export type EngineName = (typeof ENGINES)[number]['name'];

export const ENGINE_NAMES: readonly EngineName[] = ENGINES.map((e) => e.name);

export const LANGUAGES: readonly Language[] = ENGINES.map((e) => e.language);

export function isEngineName(text: string): text is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(text);
}

export function engineInfo(name: EngineName): EngineInfo {
  return ENGINES.find((e) => e.name === name)!;
}

export function languageOf(name: EngineName): Language {
  return engineInfo(name).language;
}

/** The engine written in a language the paper names ("C++" → "cpp"); undefined for others (etcd). */
export function engineOfLanguage(language: string): EngineName | undefined {
  return ENGINES.find((e) => e.language === language)?.name;
}
