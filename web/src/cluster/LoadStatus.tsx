// What a view driving the engines says while they load, when they cannot run, and when the last
// action was refused: the Cluster view and the Learn view's live cluster both show it.

/** Where loading the engines and opening their sessions stands. */
export type Loaded = { state: 'loading'; what: string } | { state: 'failed'; message: string } | { state: 'ready' };

export function LoadStatus({ loaded, cannotRun, failedTestId, actionError }: { loaded: Loaded; cannotRun: string; failedTestId: string; actionError: string | null }) {
  return (
    <>
      {loaded.state === 'loading' && (
        <p className="status" role="status">
          <span className="spinner" aria-hidden="true" /> Loading {loaded.what}…
        </p>
      )}
      {loaded.state === 'failed' && (
        <p className="problems" role="alert" data-testid={failedTestId}>
          {cannotRun}: {loaded.message}.
        </p>
      )}
      {actionError && (
        <p className="error-text" role="alert" data-testid="action-error">
          {actionError}
        </p>
      )}
    </>
  );
}
