// The shell: the home page and navigation between the views, presenter mode, the `?` shortcut sheet and
// the message shown when the URL could not be fully read. Views load on demand (the home page
// comes with the shell).
import { Suspense, lazy, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { useAppState } from '../state/useAppState.ts';
import { VIEWS, type View } from '../state/views.ts';
import { encodeState } from '../state/url-state.ts';
import { ViewShortcutsContext, type Shortcut } from './shortcuts.ts';
import { useShortcutKeys } from './shortcut-keys.ts';
import { HelpOverlay } from './HelpOverlay.tsx';
import { ProblemsBanner } from './ProblemsBanner.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import type { ViewProps } from './view-props.ts';
// The root address's page is small and the first thing most visitors see: it comes with the
// shell instead of after it (one round trip fewer before the page is interactive).
import HomeView from '../home/HomeView.tsx';

const VIEW_COMPONENTS: Record<View, ComponentType<ViewProps>> = {
  cluster: lazy(() => import('../cluster/ClusterView.tsx')),
  lab: lazy(() => import('../lab/LabView.tsx')),
  race: lazy(() => import('../race/RaceView.tsx')),
  paper: lazy(() => import('../paper/PaperView.tsx')),
  cost: lazy(() => import('../cost/CostView.tsx')),
  learn: lazy(() => import('../learn/LearnView.tsx')),
  home: HomeView,
};

function requestFullScreen(): void {
  // Browsers allow this only inside a user gesture; presenter mode works without it.
  document.documentElement.requestFullscreen?.().catch(() => {});
}

function exitFullScreen(): void {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
}

export function App() {
  const { state, problems, update, dismissProblems } = useAppState();
  const [helpOpen, setHelpOpen] = useState(false);

  const setView = useCallback((view: View) => update((s) => ({ ...s, view })), [update]);
  const setPresenter = useCallback(
    (on: boolean) => {
      if (on) requestFullScreen();
      else exitFullScreen();
      update((s) => ({ ...s, presenter: on }));
    },
    [update],
  );

  const shellShortcuts = useMemo<Shortcut[]>(
    () => [
      ...VIEWS.map((v, i) => ({ key: String(i + 1), label: `${v.label} view`, run: () => setView(v.id) })),
      { key: 'l', label: 'Learn: the lessons', run: () => setView('learn') },
      { key: 'p', label: 'presenter mode on / off', run: () => setPresenter(!state.presenter) },
      { key: 'f', label: 'full screen', run: requestFullScreen },
      { key: '?', label: 'this list of shortcuts', run: () => setHelpOpen((o) => !o) },
      { key: 'Escape', label: 'close this list / leave presenter mode', run: () => (helpOpen ? setHelpOpen(false) : setPresenter(false)) },
    ],
    [setView, setPresenter, state.presenter, helpOpen],
  );

  const { viewShortcuts, registerViewShortcuts } = useShortcutKeys(shellShortcuts, helpOpen);

  useEffect(() => {
    document.documentElement.classList.toggle('presenter', state.presenter);
  }, [state.presenter]);

  const Current = VIEW_COMPONENTS[state.view];
  const hrefFor = (view: View) => `?${encodeState({ ...state, view })}`;

  return (
    <ViewShortcutsContext.Provider value={registerViewShortcuts}>
      <div className="app" data-view={state.view}>
        <header className="chrome">
          <a className="brand" href="?" onClick={(e) => (e.preventDefault(), setView('home'))} data-testid="brand">
            Replicant Lab
          </a>
          <nav aria-label="Views">
            {VIEWS.map((v, i) => (
              <a
                key={v.id}
                href={hrefFor(v.id)}
                aria-current={state.view === v.id ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  setView(v.id);
                }}
                title={`${v.audience} (key ${i + 1})`}
              >
                {v.label}
              </a>
            ))}
          </nav>
          <div className="chrome-actions">
            <button type="button" onClick={() => setPresenter(true)} title="Presenter mode (key p)">
              Present
            </button>
            <button type="button" onClick={() => setHelpOpen(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (key ?)">
              ?
            </button>
          </div>
        </header>
        {state.presenter && (
          <p className="presenter-hint" data-testid="presenter-hint">
            Presenter mode · <kbd>?</kbd> shortcuts · <kbd>Esc</kbd> leave
          </p>
        )}
        {problems.length > 0 && <ProblemsBanner problems={problems} onDismiss={dismissProblems} />}
        <main id="main">
          <Suspense fallback={<p className="loading" role="status">Loading the {state.view} view…</p>}>
            <ErrorBoundary view={state.view}>
              <Current state={state} update={update} />
            </ErrorBoundary>
          </Suspense>
        </main>
        {helpOpen && <HelpOverlay view={state.view} viewShortcuts={viewShortcuts} shellShortcuts={shellShortcuts} onClose={() => setHelpOpen(false)} />}
      </div>
    </ViewShortcutsContext.Provider>
  );
}
