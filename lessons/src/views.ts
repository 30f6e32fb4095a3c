// What lessons read from a node's inspect view (docs/protocol.md, "Inspect"): only the fields
// a checkpoint or a placeholder names. A down node reads as null.
import { formatBallot, leaderOf } from '@replicant/engines/loader/ballot';

export interface NodeView {
  id: number;
  role: 'leader' | 'candidate' | 'follower';
  ballot: number;
  leader: number | null;
  last_index: number;
  last_executed: number;
  global_last_executed: number;
  log: { index: number; ballot: number; state: 'in_progress' | 'committed' | 'executed'; command: { type: string; key?: string; value?: string } }[];
  kv: { size: number; digest: string; entries: [string, string][] };
  prepare: { ballot: number; promises: number } | null;
  counters: Record<string, number>;
}

export function readView(json: string): NodeView | null {
  return JSON.parse(json) as NodeView | null;
}

export { formatBallot, leaderOf };

export function commandText(c: NodeView['log'][number]['command']): string {
  if (c.type === 'noop') return 'no-op';
  return c.type === 'put' ? `put ${c.key} ${c.value ?? ''}` : `${c.type} ${c.key}`;
}

export function roundOf(ballot: number): number {
  return Math.floor(ballot / 256);
}
