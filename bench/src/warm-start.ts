// Where each setting's SLO search starts (bisect.ts, hint_ops_per_s): from the answer of the same
// setting's previous repetition when it has one — the same system, workload, memory, vCPUs and
// mode measured again, the closest guess there is — else from the previous memory size of the
// same system, workload, vCPUs, mode and repetition. Only clean answers are carried: a search
// stopped by a disturbed probe, or a setting with errors, passes nothing on (and clears what its
// keys held, so a stale answer is not used past it).
import { warmStartKey, type Setting } from './plan.ts';

/** What identifies a setting across repetitions: everything but the repetition. */
export function repetitionKey(s: Setting): string {
  const memory = s.ratio !== null ? `r${s.ratio}` : `${s.memory_bytes}B`;
  return [s.system, s.workload, s.workload_file ?? '', memory, s.vcpus, s.durability, s.fsync ?? ''].join('/');
}

export interface SearchOutcome {
  best: { target_ops_per_s: number } | null;
  stopped_by: unknown;
  errors: string[];
}

export class WarmStarts {
  private readonly byMemory = new Map<string, number>();
  private readonly byRepetition = new Map<string, number>();

  /** The rate to start `s`'s search from, or undefined for a cold search. */
  hintFor(s: Setting): number | undefined {
    return this.byRepetition.get(repetitionKey(s)) ?? this.byMemory.get(warmStartKey(s));
  }

  /** Where the hint came from, for the progress log. */
  sourceOf(s: Setting): 'previous repetition' | 'previous memory size' | null {
    return this.byRepetition.has(repetitionKey(s)) ? 'previous repetition' : this.byMemory.has(warmStartKey(s)) ? 'previous memory size' : null;
  }

  remember(s: Setting, r: SearchOutcome): void {
    if (r.best && !r.stopped_by && !r.errors.length) {
      this.byMemory.set(warmStartKey(s), r.best.target_ops_per_s);
      this.byRepetition.set(repetitionKey(s), r.best.target_ops_per_s);
    } else {
      this.byMemory.delete(warmStartKey(s));
      this.byRepetition.delete(repetitionKey(s));
    }
  }
}
