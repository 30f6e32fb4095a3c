// The GC-mitigation papers' stated numbers (data/mitigations: BLADE, MITMEM) as typed rows, and
// BLADE's Table 7 as a grid, for the Paper and Lab views. Parsing only: the validator
// (validate.mjs) is what holds the files to their Table Schemas and quotes.
import { csvObjects } from './csv.mjs';

export const MITIGATION_COLUMNS = ['id', 'figure_or_table', 'section', 'system', 'configuration', 'metric', 'statistic', 'value', 'unit', 'note', 'exact_quote'];
export const TABLE7_PERCENTILES = ['p95', 'p99', 'p99.9', 'p99.99', 'p99.999', 'p99.9999'];
export const TABLE7_CONFIGURATIONS = ['BLADE', 'GC-Off', 'GC-On'];
const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const QUALIFIER = /^qualifier=(approx|lower_bound|upper_bound|implied)(;|$)/;

export function parseMitigationValues(text, source = 'mitigation values') {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (header !== MITIGATION_COLUMNS.join(',')) {
    throw new Error(`${source}: the header must be ${MITIGATION_COLUMNS.join(',')}`);
  }
  return csvObjects(text, source).map((r, i) => {
    const numeric = r.unit !== 'text' && r.unit !== 'version';
    if (numeric && !NUMERIC.test(r.value ?? '')) throw new Error(`${source}: row ${i + 1}: value "${r.value}" is not a number`);
    const note = r.note ?? '';
    const q = QUALIFIER.exec(note);
    return {
      id: r.id,
      figure_or_table: r.figure_or_table,
      section: r.section,
      system: r.system,
      configuration: r.configuration,
      metric: r.metric,
      statistic: r.statistic,
      value: numeric ? Number(r.value) : r.value,
      printed: r.value,
      unit: r.unit,
      qualifier: q ? q[1] : 'exact',
      note: q ? note.slice(q[0].length) : note,
      exact_quote: r.exact_quote,
    };
  });
}

// BLADE's Table 7 (etcd, ms): one cell per percentile and configuration, in the table's order.
// A cell the rows do not hold is an error: the table is complete in the paper.
export function bladeTable7(rows) {
  return TABLE7_PERCENTILES.map((percentile) => ({
    percentile,
    cells: TABLE7_CONFIGURATIONS.map((configuration) => {
      const row = rows.find((r) => r.figure_or_table === 'Table 7' && r.statistic === percentile && r.configuration === configuration);
      if (!row || typeof row.value !== 'number' || row.unit !== 'ms') throw new Error(`Table 7 has no ${configuration} ${percentile} in ms`);
      return { configuration, latency_ms: row.value, printed: row.printed, row };
    }),
  }));
}
