// Which form fields hold text their Field cannot read. A Knob keeps such text in its box and the
// state keeps the last valid value; a view that runs or shows results from its fields must
// know, so that an invalid field blocks the run (and marks results stale) instead of the old
// value being used silently.
import { createContext, useCallback, useContext, useEffect, useState } from 'react';

/** Knob name → the field's sentence saying what is allowed. */
export type InvalidFields = Readonly<Record<string, string>>;

type Report = (name: string, error: string | null) => void;

export const FieldValidityContext = createContext<Report | null>(null);

export function useInvalidFields(): { invalid: InvalidFields; report: Report } {
  const [invalid, setInvalid] = useState<InvalidFields>({});
  const report = useCallback<Report>((name, error) => {
    setInvalid((m) => {
      if (error === null) {
        if (!(name in m)) return m;
        const rest = { ...m };
        delete rest[name];
        return rest;
      }
      return m[name] === error ? m : { ...m, [name]: error };
    });
  }, []);
  return { invalid, report };
}

/** Called by a Knob: tells the surrounding form whether its text is valid (and forgets it when the knob goes away). */
export function useReportValidity(name: string, error: string | null): void {
  const report = useContext(FieldValidityContext);
  useEffect(() => {
    report?.(name, error);
    return () => report?.(name, null);
  }, [report, name, error]);
}

/** "Fix the field first: <message>; <message>" or null when every field is valid. */
export function invalidSentence(invalid: InvalidFields): string | null {
  const messages = Object.values(invalid);
  if (messages.length === 0) return null;
  return `${messages.length === 1 ? 'A field cannot be read' : `${messages.length} fields cannot be read`}: ${messages.join('; ')}.`;
}
