// A stated value as the text prints it, with its qualifier and, where arithmetic settles a
// slip, the corrected reading.
import type { ResultRow } from './results.ts';
export { readableQuote } from './quote.ts';

const QUALIFIER_PREFIX: Record<string, string> = { approx: '≈ ', lower_bound: '≥ ', upper_bound: '< ', implied: '(implied) ' };

export function metricWords(metric: string): string {
  return metric.replace(/_/g, ' ').replace(/\bslo\b/, 'at SLO').replace(/\bvcpu\b/g, 'vCPU').replace(/\bgc\b/g, 'GC').replace(/\bp99\b/, 'p99');
}

export function RowValue({ row }: { row: ResultRow }) {
  const unit = row.unit === 'text' || row.unit === 'version' ? '' : ` ${row.unit}`;
  return (
    <span className="row-value">
      {QUALIFIER_PREFIX[row.qualifier] ?? ''}
      {String(row.value)}
      {unit}
      {row.correction && (
        <span className="correction" title={row.correction.reasoning}>
          {' '}
          (printed; corrected: {String(row.correction.corrected_value)} {row.correction.corrected_unit} — {row.correction.reasoning})
        </span>
      )}
    </span>
  );
}
