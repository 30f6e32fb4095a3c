// Messages between the cost page and its Pyodide worker. Plain data only.

export type CostCommand = 'estimate' | 'sensitivity' | 'memory' | 'instances' | 'defaults' | 'fig14';
export type CostFormat = 'json' | 'csv';

export type CostRequest =
  | { type: 'init'; id: number; pyodideIndexUrl: string }
  | { type: 'run'; id: number; command: CostCommand; inputs: string; format: CostFormat };

export type CostResponse =
  | { type: 'ready'; id: number; startup_ms: number; python: string }
  | { type: 'output'; id: number; text: string; run_ms: number }
  /** The model refused the inputs: the message says what to change (the CLI's words). */
  | { type: 'input-error'; id: number; message: string }
  /** Something broke that is not the user's doing (Pyodide could not start, a bug). */
  | { type: 'failure'; id: number; message: string };
