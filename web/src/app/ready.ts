// Marks the page as interactive for a view (html[data-ready="<view>"]). The benchmark times the
// moment it appears; the browser tests wait for it instead of sleeping. A view shown inside
// another (the Learn view's live panel) does not mark the page: the outer view does.
import { createContext, useContext, useEffect } from 'react';

export const MarksReadyContext = createContext(true);

export function useReady(view: string, ready: boolean): void {
  const marks = useContext(MarksReadyContext);
  useEffect(() => {
    if (!ready || !marks) return;
    document.documentElement.dataset.ready = view;
    return () => {
      if (document.documentElement.dataset.ready === view) delete document.documentElement.dataset.ready;
    };
  }, [view, ready, marks]);
}
