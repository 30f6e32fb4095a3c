// The shell's keyboard: one window listener for the shell's shortcuts and the shown view's.
import { useCallback, useEffect, useRef, useState } from 'react';
import { findShortcut, type Shortcut } from './shortcuts.ts';

/** Listens for the shell's shortcuts and the shown view's; returns the view's list (for the help
 * overlay) and the function a view registers its list with (ViewShortcutsContext). */
export function useShortcutKeys(shell: Shortcut[], helpOpen: boolean): { viewShortcuts: Shortcut[]; registerViewShortcuts: (list: Shortcut[]) => void } {
  // The listener reads the view's list from a ref, not from state: a view registers its list in
  // an effect, and a key pressed before the shell has rendered again with that list was dropped
  // (the Race's → pressed the moment the view marked itself ready; seen in web/e2e/lab-race.spec.ts).
  const current = useRef<Shortcut[]>([]);
  const [viewShortcuts, setViewShortcuts] = useState<Shortcut[]>([]);
  const registerViewShortcuts = useCallback((list: Shortcut[]) => {
    current.current = list;
    setViewShortcuts(list);
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const hit = findShortcut(helpOpen ? shell : [...current.current, ...shell], e);
      if (!hit) return;
      e.preventDefault();
      hit.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shell, helpOpen]);
  return { viewShortcuts, registerViewShortcuts };
}
