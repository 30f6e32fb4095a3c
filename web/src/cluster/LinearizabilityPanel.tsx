// "Check linearizability": the run so far, as a client history, checked by Porcupine (the
// checker's wasm build, in its own worker). The operations Porcupine could not place are
// highlighted; its own visualisation opens in a new tab.
import { useEffect, useRef, useState } from 'react';
import type { Verdict } from '@replicant/checker/lincheck';
import { describeOperation, type SessionHistory } from './history.ts';

type Outcome =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'done'; history: SessionHistory; verdict: Verdict; html: string | undefined; at_step: number }
  | { state: 'failed'; message: string };

/** `history`: the run's client history as it is now (read in the engine worker, where the trace is). */
export function LinearizabilityPanel({ history: readHistory }: { history: () => Promise<{ history: SessionHistory; step: number }> }) {
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const worker = useRef<Worker | null>(null);
  const nextId = useRef(0);
  const htmlUrl = useRef<string | null>(null);

  useEffect(
    () => () => {
      worker.current?.terminate();
      if (htmlUrl.current) URL.revokeObjectURL(htmlUrl.current);
    },
    [],
  );

  const check = async () => {
    const id = ++nextId.current;
    setOutcome({ state: 'checking' });
    let history: SessionHistory;
    let step: number;
    try {
      ({ history, step } = await readHistory());
    } catch (e) {
      setOutcome({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (id !== nextId.current) return;
    worker.current ??= new Worker(new URL('./check-worker.ts', import.meta.url), { type: 'module' });
    worker.current.onmessage = (e: MessageEvent<{ id: number; verdict?: Verdict; html?: string; error?: string }>) => {
      if (e.data.id !== id) return;
      if (e.data.error !== undefined || !e.data.verdict) setOutcome({ state: 'failed', message: e.data.error ?? 'no verdict' });
      else setOutcome({ state: 'done', history, verdict: e.data.verdict, html: e.data.html, at_step: step });
    };
    worker.current.onerror = (e) => {
      worker.current = null;
      setOutcome({ state: 'failed', message: e.message || 'the checker worker failed to load' });
    };
    worker.current.postMessage({ id, history: history.ops });
  };

  const openHtml = (html: string) => {
    if (htmlUrl.current) URL.revokeObjectURL(htmlUrl.current);
    htmlUrl.current = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
    window.open(htmlUrl.current, '_blank', 'noopener');
  };

  return (
    <section className="linearizability" data-testid="linearizability">
      <h2>Linearizability</h2>
      <p className="note">
        Every client command so far is an operation from the moment it reached its node to the reply. Porcupine (compiled to WebAssembly)
        looks for one order of them that a single copy of the store could have produced.
      </p>
      <button type="button" onClick={() => void check()} disabled={outcome.state === 'checking'} data-testid="check-linearizability">
        Check linearizability
      </button>
      {outcome.state === 'checking' && <p role="status">Checking…</p>}
      {outcome.state === 'failed' && (
        <p className="error-text" role="alert" data-testid="linearizability-error">
          The check could not run: {outcome.message}.
        </p>
      )}
      {outcome.state === 'done' && (
        <div role="status" data-testid="linearizability-result" data-verdict={outcome.verdict.verdict}>
          <p>
            {outcome.verdict.verdict === 'linearizable' ? (
              <strong>Linearizable</strong>
            ) : outcome.verdict.verdict === 'violation' ? (
              <strong className="error-text">Not linearizable: no single-copy order explains key {outcome.verdict.violating_keys.join(', ')}</strong>
            ) : (
              <strong>Undecided</strong>
            )}{' '}
            (up to step {outcome.at_step}: {outcome.verdict.checked} operations checked{outcome.verdict.values_only ? ' (its writes of values and the reads that returned one: enough to prove the violation)' : ''}, {outcome.verdict.dropped_reads} unanswered reads left out,{' '}
            {outcome.verdict.unknown_writes} writes with an unknown outcome ({outcome.verdict.unread_unknown_puts} of them puts nobody read; {outcome.verdict.left_out_unknown_writes} left out of the check that decided), {outcome.history.rejected} commands turned away on arrival).
            {outcome.html && (
              <>
                {' '}
                <button type="button" className="link" onClick={() => openHtml(outcome.html!)} data-testid="porcupine-html">
                  Open Porcupine’s visualisation
                </button>
              </>
            )}
          </p>
          {outcome.history.ops.length > 0 && (
            <ol className="history" start={0} data-testid="history-ops">
              {outcome.history.ops.map((op, i) => {
                const suspect = outcome.verdict.suspect_operations.includes(i);
                return (
                  <li key={i} className={suspect ? 'violation' : undefined} data-suspect={suspect ? 'true' : undefined}>
                    step {outcome.history.steps[i]}: {describeOperation(op)}
                    {suspect && <strong> — cannot be placed</strong>}
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
