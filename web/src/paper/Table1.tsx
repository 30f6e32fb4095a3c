// Table 1 as a table: bare metal against virtualized, and the decrease as printed and as
// arithmetic gives it.
import { LANGUAGES } from '@replicant/engines/loader/catalogue';
import type { ResultRow } from './results.ts';
import { RowValue } from './RowValue.tsx';
import { formatValue } from './panel-model.ts';


export function Table1({ rows }: { rows: ResultRow[] }) {
  const t = rows.filter((r) => r.figure_or_table === 'Table 1');
  const cell = (lang: string, metric: string, instance?: string) =>
    t.find((r) => r.language === lang && r.metric === metric && (instance === undefined || r.instance_type === instance));
  return (
    <table className="data" data-testid="table1">
      <caption className="note" style={{ captionSide: 'bottom', textAlign: 'left' }}>
        Max throughput at p99 ≤ 20 ms, workload A, 8 CPUs, 32 GiB (§5.7). The last column recomputes the decrease from the two
        throughputs.
      </caption>
      <thead>
        <tr>
          <th>Implementation</th>
          <th className="num">m5.metal</th>
          <th className="num">m5.2xlarge</th>
          <th>Decrease, as printed</th>
          <th className="num">Decrease, recomputed</th>
        </tr>
      </thead>
      <tbody>
        {LANGUAGES.map((l) => {
          const metal = cell(l, 'max_throughput_slo', 'm5.metal');
          const virt = cell(l, 'max_throughput_slo', 'm5.2xlarge');
          const dec = cell(l, 'virtualization_throughput_decrease');
          const recomputed =
            typeof metal?.value === 'number' && typeof virt?.value === 'number' ? ((metal.value - virt.value) / metal.value) * 100 : null;
          return (
            <tr key={l}>
              <th scope="row">{l}</th>
              <td className="num">{metal && <RowValue row={metal} />}</td>
              <td className="num">{virt && <RowValue row={virt} />}</td>
              <td>{dec && <RowValue row={dec} />}</td>
              <td className="num">{recomputed === null ? '' : `${formatValue(Number(recomputed.toFixed(2)))} %`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
