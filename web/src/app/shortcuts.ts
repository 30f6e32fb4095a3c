// Keyboard shortcuts: the shell's own and those the current view registers. One listener on
// the window; keys typed into form fields are left alone.
import { createContext, useContext, useEffect } from 'react';

export interface Shortcut {
  /** KeyboardEvent.key, e.g. 'n', 'ArrowRight', ' ' */
  key: string;
  /** What people read on the `?` sheet, e.g. 'deliver the next event' */
  label: string;
  run: () => void;
}

export function keyLabel(key: string): string {
  const names: Record<string, string> = { ' ': 'Space', ArrowRight: '→', ArrowLeft: '←', ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc' };
  return names[key] ?? key;
}

/** True when the key press belongs to a control (typing a number must not switch views). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['checkbox', 'radio', 'button', 'range'].includes((target as HTMLInputElement).type);
  return false;
}

export function findShortcut(list: readonly Shortcut[], event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): Shortcut | null {
  if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return null;
  return list.find((s) => s.key === event.key) ?? null;
}

/** The current view's shortcuts travel up to the shell through this context. */
export const ViewShortcutsContext = createContext<(list: Shortcut[]) => void>(() => {});

/** Registers a view's shortcuts while it is shown. Pass a memoised list. */
export function useViewShortcuts(list: Shortcut[]): void {
  const register = useContext(ViewShortcutsContext);
  useEffect(() => {
    register(list);
    return () => register([]);
  }, [register, list]);
}
