export declare class CsvError extends Error {
  constructor(source: string, line: number, message: string);
  readonly source: string;
  /** 1-based line the bad record starts on. */
  readonly line: number;
}
export interface CsvTable {
  header: string[];
  records: string[][];
  /** 1-based line each record starts on. */
  lines: number[];
}
export declare function readCsvText(text: string, source?: string): CsvTable;
export declare function csvRows(text: string, source?: string): string[][];
export declare function toObjects(header: string[], records: string[][]): Record<string, string>[];
export declare function csvObjects(text: string, source?: string): Record<string, string>[];
