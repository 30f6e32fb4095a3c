// "Check linearizability": the run so far, as a client history, checked by Porcupine (the
// checker's wasm build, in its own worker). The operations Porcupine could not place are
// highlighted; its own visualisation opens in a new tab.
import { useEffect, useRef, useState } from 'react';
import type { Verdict } from '@replicant/checker/lincheck';
import { describeOperation, type SessionHistory } from './history.ts';
import { advance, checkLimitS, CHECK_LIMIT_DEFAULT_S, elapsedS, type CheckEvent, type CheckState } from './check-state.ts';
import { plural } from './plural.ts';

/** How often the running clock (and the time limit) is looked at. */
const TICK_MS = 250;

type WorkerReply = { id: number; verdict?: Verdict; html?: string; error?: string };

/** `history`: the run's client history as it is now (read in the engine worker, where the trace is). */
export function LinearizabilityPanel({ history: readHistory }: { history: () => Promise<{ history: SessionHistory; step: number }> }) {
  const [outcome, setOutcome] = useState<CheckState>({ state: 'idle' });
  const [now_ms, setNow] = useState(0);
  const current = useRef<CheckState>({ state: 'idle' });
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

  // The module decides; this carries out what it says (send to the worker, or end the worker).
  const dispatch = (event: CheckEvent) => {
    const { state, effects } = advance(current.current, event);
    current.current = state;
    setOutcome(state);
    for (const effect of effects) {
      if (effect.kind === 'terminate-worker') {
        worker.current?.terminate();
        worker.current = null;
      } else {
        const w = (worker.current ??= spawnWorker());
        w.postMessage({ id: effect.id, history: effect.history.ops });
      }
    }
  };

  const spawnWorker = (): Worker => {
    const w = new Worker(new URL('./check-worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<WorkerReply>) => {
      const { id, verdict, html, error } = e.data;
      if (error !== undefined || !verdict) dispatch({ type: 'worker-failed', id, message: error ?? 'no verdict' });
      else dispatch({ type: 'verdict', id, verdict, html });
    };
    w.onerror = (e) => {
      const s = current.current;
      if (s.state === 'checking') dispatch({ type: 'worker-failed', id: s.id, message: e.message || 'the checker worker failed to load' });
    };
    return w;
  };

  const checking = outcome.state === 'checking';
  useEffect(() => {
    if (!checking) return;
    const timer = setInterval(() => {
      const t = performance.now();
      setNow(t);
      dispatch({ type: 'tick', now_ms: t });
    }, TICK_MS);
    return () => clearInterval(timer); // dispatch reads refs only, so the first one serves the whole check
  }, [checking]);

  const check = async () => {
    let limit_s: number;
    try {
      limit_s = checkLimitS((window as unknown as { __replicantCheckLimitS?: unknown }).__replicantCheckLimitS);
    } catch (e) {
      dispatch({ type: 'refused', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    const id = ++nextId.current;
    const t = performance.now();
    setNow(t);
    dispatch({ type: 'start', id, now_ms: t, limit_s });
    try {
      const { history, step } = await readHistory();
      dispatch({ type: 'history', id, history, at_step: step });
    } catch (e) {
      dispatch({ type: 'history-failed', id, message: e instanceof Error ? e.message : String(e) });
    }
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
      <p className="note">
        Porcupine gets {limitText(outcome)} to decide: its search can take exponentially long (many writes overlapping on one key), and in
        the browser only this page can end it.
      </p>
      <button type="button" onClick={() => void check()} disabled={outcome.state === 'checking'} data-testid="check-linearizability">
        Check linearizability
      </button>
      {outcome.state === 'checking' && (
        <p role="status" data-testid="linearizability-checking">
          Checking {outcome.checked ? `${outcome.checked.operations} operations on ${plural(outcome.checked.keys, 'key')}` : 'the run so far'}… {elapsedS(outcome, now_ms).toFixed(0)} s of{' '}
          {outcome.limit_s} s{' '}
          <button type="button" onClick={() => dispatch({ type: 'stop', now_ms: performance.now() })} data-testid="stop-linearizability">
            Stop
          </button>
        </p>
      )}
      {outcome.state === 'undecided' && (
        <p role="status" data-testid="linearizability-undecided" data-why={outcome.why}>
          <strong>Undecided:</strong>{' '}
          {outcome.why === 'time-limit' ? `Porcupine did not decide within ${outcome.limit_s} s` : `Stopped by you after ${(outcome.after_ms / 1000).toFixed(1)} s, before Porcupine decided`}
          {outcome.checked ? ` (up to step ${outcome.checked.at_step}: ${outcome.checked.operations} operations on ${plural(outcome.checked.keys, 'key')})` : ' (the run’s history was still being read)'}, so
          this history is shown neither linearizable nor violating: that is Porcupine’s own “unknown” verdict. Its checker was ended; the
          next check starts a fresh one.
        </p>
      )}
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
            (up to step {outcome.checked.at_step}: {outcome.verdict.checked} operations checked{outcome.verdict.values_only ? ' (its writes of values and the reads that returned one: enough to prove the violation)' : ''}, {outcome.verdict.dropped_reads} unanswered reads left out,{' '}
            {outcome.verdict.unknown_writes} writes with an unknown outcome ({outcome.verdict.unread_unknown_puts} of them puts nobody read; {outcome.verdict.left_out_unknown_writes} left out of the check that decided), {outcome.checked.history.rejected} commands turned away on arrival).
            {outcome.html && (
              <>
                {' '}
                <button type="button" className="link" onClick={() => openHtml(outcome.html!)} data-testid="porcupine-html">
                  Open Porcupine’s visualisation
                </button>
              </>
            )}
          </p>
          {outcome.checked.history.ops.length > 0 && (
            <ol className="history" start={0} data-testid="history-ops">
              {outcome.checked.history.ops.map((op, i) => {
                const suspect = outcome.verdict.suspect_operations.includes(i);
                return (
                  <li key={i} className={suspect ? 'violation' : undefined} data-suspect={suspect ? 'true' : undefined}>
                    step {outcome.checked.history.steps[i]}: {describeOperation(op)}
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

/** The limit the panel names: the running check's own, else the default. */
function limitText(s: CheckState): string {
  return `${s.state === 'checking' || s.state === 'undecided' ? s.limit_s : CHECK_LIMIT_DEFAULT_S} s`;
}
