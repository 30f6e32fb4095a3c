// @vitest-environment jsdom
import { useEffect, useMemo, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { ViewShortcutsContext, useViewShortcuts, type Shortcut } from './shortcuts.ts';
import { useShortcutKeys } from './shortcut-keys.ts';

const SHELL: Shortcut[] = [];

function Shell({ children }: { children?: ReactNode }) {
  const { registerViewShortcuts } = useShortcutKeys(SHELL, false);
  return <ViewShortcutsContext.Provider value={registerViewShortcuts}>{children}</ViewShortcutsContext.Provider>;
}

/** A view that registers → and, in the same effect pass, receives a press of it: what a browser
 * test (or a quick user) does the moment the view marks itself ready, before the shell has
 * rendered again with the view's list. */
function EagerView({ pressed }: { pressed: string[] }) {
  const list = useMemo<Shortcut[]>(() => [{ key: 'ArrowRight', label: 'next', run: () => pressed.push('ArrowRight') }], [pressed]);
  useViewShortcuts(list);
  useEffect(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
  }, []);
  return null;
}

describe('useShortcutKeys', () => {
  it('hands a key to the view that registered it at once, before the shell renders again', () => {
    const pressed: string[] = [];
    const { rerender, unmount } = render(<Shell />);
    rerender(
      <Shell>
        <EagerView pressed={pressed} />
      </Shell>,
    );
    expect(pressed).toEqual(['ArrowRight']);
    unmount();
  });

  it('drops a view\'s keys once the view is gone', () => {
    const pressed: string[] = [];
    const { rerender, unmount } = render(
      <Shell>
        <EagerView pressed={pressed} />
      </Shell>,
    );
    pressed.length = 0;
    rerender(<Shell />);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    expect(pressed).toEqual([]);
    unmount();
  });
});
