// The `?` sheet: every shortcut that works right now, the view's first.
import { useEffect, useRef } from 'react';
import { keyLabel, type Shortcut } from './shortcuts.ts';
import { VIEWS, type View } from '../state/views.ts';

function ShortcutList({ list }: { list: Shortcut[] }) {
  return (
    <dl className="shortcut-list">
      {list.map((s) => (
        <div key={s.key}>
          <dt>
            <kbd>{keyLabel(s.key)}</kbd>
          </dt>
          <dd>{s.label}</dd>
        </div>
      ))}
    </dl>
  );
}

export function HelpOverlay(props: { view: View; viewShortcuts: Shortcut[]; shellShortcuts: Shortcut[]; onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  const viewLabel = VIEWS.find((v) => v.id === props.view)?.label ?? props.view;
  return (
    <div className="overlay" onClick={props.onClose}>
      <div role="dialog" aria-modal="true" aria-labelledby="help-title" className="dialog" onClick={(e) => e.stopPropagation()}>
        <h2 id="help-title">Keyboard shortcuts</h2>
        {props.viewShortcuts.length > 0 && (
          <>
            <h3>{viewLabel} view</h3>
            <ShortcutList list={props.viewShortcuts} />
          </>
        )}
        <h3>Everywhere</h3>
        <ShortcutList list={props.shellShortcuts} />
        <button ref={closeRef} type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
