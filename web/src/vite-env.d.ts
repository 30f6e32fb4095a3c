/// <reference types="vite/client" />

// cost-model/js/loader.mjs (plain ESM; see cost-model/README.md, "In the browser").
declare module '@replicant/cost-model' {
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
}

// The lessons, validated at build time (vite-plugins/lessons.ts).
declare module 'virtual:replicant-lessons' {
  const catalogue: import('@replicant/lessons/runtime').CatalogueJson;
  export default catalogue;
}
