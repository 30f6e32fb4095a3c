// RFC 4180 CSV: fields with commas, quotes or line breaks are quoted; quotes are doubled.
export type CsvCell = string | number | boolean | null | undefined;

export function csvField(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  for (const [i, r] of rows.entries()) {
    if (r.length !== header.length) throw new Error(`CSV row ${i + 1} has ${r.length} cells; the header has ${header.length}`);
  }
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
