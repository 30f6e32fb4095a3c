// The line that says whether the engines, run side by side on the same choices, are still
// identical: the Cluster view and the Learn view's live cluster both show it.
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { Comparison } from './controller.ts';

/** With `step`, the note also says after how many steps and which engine the panels show. */
export function ComparisonNote({ comparison, step }: { comparison: Comparison; step?: number }) {
  return (
    <p className={`compare ${comparison.identical ? 'same' : 'differ'}`} data-testid="comparison" data-identical={comparison.identical} role="status">
      {comparison.identical ? (
        step === undefined ? (
          <>
            <strong>{comparison.engines.map((e) => languageOf(e)).join(', ')}: identical</strong> — {comparison.detail}.
          </>
        ) : (
          <>
            <strong>{comparison.engines.map((e) => languageOf(e)).join(', ')}: identical</strong> after {step} steps — {comparison.detail}. Panels show{' '}
            {languageOf(comparison.engines[0]!)}.
          </>
        )
      ) : (
        <>
          <strong>The engines differ:</strong> {comparison.detail}.
        </>
      )}
    </p>
  );
}
