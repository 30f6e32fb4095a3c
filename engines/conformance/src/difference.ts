// Where two outputs part, for failure reports.

/** First differing line of two outputs, for the failure report. */
export function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n    expected: ${a[i] ?? '(end)'}\n    actual:   ${b[i] ?? '(end)'}`;
  }
  return 'identical';
}
