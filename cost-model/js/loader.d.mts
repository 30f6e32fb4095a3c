// Types of loader.mjs (plain ESM), for the TypeScript packages that run the cost model: the web
// lab's Cost view (in a worker) and the lessons suite (in Node).
export interface PyodideLike {
  version: string;
  runPython(code: string): unknown;
}
export interface CostModel {
  run(command: string, inputs?: string | object, format?: 'json' | 'csv'): string;
  close(): void;
}
export const PYTHON_FILES: string[];
export const DATA_FILES: string[];
export const ALL_FILES: string[];
export const DEFAULT_ROOT: string;
export class CostModelInputError extends Error {}
export function installCostModel(pyodide: PyodideLike, files: Record<string, string>, options?: { root?: string }): CostModel;
