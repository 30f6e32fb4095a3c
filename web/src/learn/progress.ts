// Where a student stopped and which steps they finished, kept in this browser's localStorage.
// Small on purpose: the home page reads it without loading any lesson. A damaged or foreign
// record is ignored (and reported as such), never trusted.

export interface Progress {
  /** The lesson and step last shown */
  last: { lesson: number; step: number; title: string; steps: number } | null;
  /** lesson number -> the step numbers whose checkpoints and exercise were completed */
  done: Record<string, number[]>;
}

export const PROGRESS_KEY = 'replicant.lessons.progress.v1';

export function emptyProgress(): Progress {
  return { last: null, done: {} };
}

function isStepList(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 1 && x <= 200);
}

/** Parses a stored record; anything malformed gives an empty record. */
export function parseProgress(text: string | null): Progress {
  if (!text) return emptyProgress();
  try {
    const v = JSON.parse(text) as Partial<Progress>;
    const last = v.last;
    const lastOk =
      last === null ||
      (typeof last === 'object' && Number.isInteger(last?.lesson) && Number.isInteger(last?.step) && typeof last?.title === 'string' && Number.isInteger(last?.steps) && last.step >= 1 && last.step <= last.steps);
    const done = v.done && typeof v.done === 'object' && Object.values(v.done).every(isStepList) ? v.done : {};
    return { last: lastOk ? (last ?? null) : null, done };
  } catch {
    return emptyProgress();
  }
}

export function loadProgress(storage: Pick<Storage, 'getItem'> | null = safeStorage()): Progress {
  try {
    return parseProgress(storage?.getItem(PROGRESS_KEY) ?? null);
  } catch {
    return emptyProgress();
  }
}

export function saveProgress(p: Progress, storage: Pick<Storage, 'setItem'> | null = safeStorage()): void {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify(p));
  } catch {
    // Private mode or a full quota: progress is a convenience, the lesson still works.
  }
}

export function markDone(p: Progress, lesson: number, step: number): Progress {
  const list = new Set(p.done[String(lesson)] ?? []);
  list.add(step);
  return { ...p, done: { ...p.done, [String(lesson)]: [...list].sort((a, b) => a - b) } };
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
