// Keeps AppState and the address bar in step: the URL is read once at start and on
// back/forward; every change writes it back (a view change adds a history entry, knob changes
// replace the current one so Back leaves the view rather than undoing each keystroke; a change
// that starts something new inside a view, such as a torture run, may ask for an entry too).
import { useCallback, useEffect, useRef, useState } from 'react';
import { decodeState, encodeState } from './url-state.ts';
import type { AppState } from './app-state.ts';

export type StateUpdate = (draft: AppState) => AppState;
/** 'entry': the change gets a history entry of its own (Back returns to the state before it). */
export interface UpdateOptions {
  history?: 'entry' | 'replace';
}

function readLocation(): { state: AppState; problems: string[] } {
  return decodeState(window.location.search);
}

function urlFor(state: AppState): string {
  const q = encodeState(state);
  return `${window.location.pathname}${q ? `?${q}` : ''}${window.location.hash}`;
}

export function useAppState() {
  const [{ state, problems }, setDecoded] = useState(readLocation);
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    const onPop = () => setDecoded(readLocation());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const update = useCallback((change: StateUpdate, options?: UpdateOptions) => {
    const before = stateRef.current;
    const next = change(structuredClone(before));
    stateRef.current = next;
    const url = urlFor(next);
    if (url !== urlFor(before)) {
      if (next.view !== before.view || options?.history === 'entry') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    }
    setDecoded((d) => ({ state: next, problems: d.problems }));
  }, []);

  const dismissProblems = useCallback(() => setDecoded((d) => ({ state: d.state, problems: [] })), []);

  return { state, problems, update, dismissProblems };
}
