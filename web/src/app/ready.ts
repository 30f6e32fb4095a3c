// Marks the page as interactive for a view (html[data-ready="<view>"]). The benchmark times the
// moment it appears; the browser tests wait for it instead of sleeping.
import { useEffect } from 'react';

export function useReady(view: string, ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    document.documentElement.dataset.ready = view;
    return () => {
      if (document.documentElement.dataset.ready === view) delete document.documentElement.dataset.ready;
    };
  }, [view, ready]);
}
