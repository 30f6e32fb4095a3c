// Beside the month-by-month estimate: tight vs ample memory per language, and the instance type
// × memory per node trade-off with each instance's price per vCPU and per GiB. Rendering only:
// the numbers come from the cost model (memory / instances commands), the words from
// cost-options.ts.
import { ENGINES, engineOfLanguage, type EngineName } from '@replicant/engines/loader/catalogue';
import type { CostState } from './cost-fields.ts';
import { capacitySourceWords } from './capacity-source.ts';
import { languageAtWords, memorySentence, tradeoffSentence, unitPrice, type InstancesOutput, type LanguageAt, type MemoryOutput } from './cost-options.ts';
import { countText, usd } from './cost-output.ts';
import { usableCapacity, type Side } from './priced-setting.ts';

export type OptionsResult<T> = { state: 'none' } | { state: 'computing' } | { state: 'done'; out: T } | { state: 'error'; message: string };

const ratioText = (r: number) => String(Number(r.toPrecision(6)));

/** Where one side's capacity came from, in words. */
function fromWords(cost: CostState, side: Side, engine: EngineName | undefined, at: LanguageAt): string {
  if (!at.known) return '—';
  if (at.capacity_from === 'capacity.ops_per_s_per_cluster' && engine) {
    const src = side === 'form' ? cost[`src${engine}`] : cost[`vssrc${engine}`];
    return capacitySourceWords(usableCapacity(cost, side, engine), src);
  }
  // Row ids name figure or table first (fig6a-java-…): the short form, the full ids on hover.
  const rows = at.capacity_rows ?? [];
  return rows.length ? `the paper (${[...new Set(rows.map((r) => r.split('-')[0]))].join(', ')})` : `${at.capacity_from}`;
}

export function TightVsAmple({ cost, result }: { cost: CostState; result: OptionsResult<MemoryOutput> }) {
  return (
    <section className="cost-option" data-testid="tight-vs-ample" aria-labelledby="tight-vs-ample-h">
      <h2 id="tight-vs-ample-h">Tight vs ample memory</h2>
      {cost.vs === cost.ratio ? (
        <p className="note" data-testid="tight-vs-ample-same">
          The ratio to compare with is the form’s own ({cost.ratio}): choose another under “Tight vs ample memory” to see the two side by side.
        </p>
      ) : result.state === 'error' ? (
        <p className="problems" role="alert" data-testid="tight-vs-ample-error">
          The model cannot compare these: {result.message}
        </p>
      ) : result.state !== 'done' ? (
        <p className="note">{result.state === 'computing' ? 'Computing…' : ''}</p>
      ) : (
        <MemoryAnswer cost={cost} out={result.out} />
      )}
    </section>
  );
}

function MemoryAnswer({ cost, out }: { cost: CostState; out: MemoryOutput }) {
  const ample = ratioText(out.settings.ample.memory_to_data_ratio);
  const tight = ratioText(out.settings.tight.memory_to_data_ratio);
  // The form's ratio is one side, the compared ratio the other.
  const sideOf = (name: 'ample' | 'tight'): Side => (ratioText(out.settings[name].memory_to_data_ratio) === cost.ratio ? 'form' : 'vs');
  const languages = ENGINES.map((e) => e.language).filter((l) => out.languages[l]);
  const cell = (at: LanguageAt) => (at.instances_now === undefined ? (at.known ? 'cannot meet the SLO' : 'unknown') : `${countText(at.instances_now)} (${usd(at.cloud_usd_per_year_now!)}/yr)`);
  return (
    <>
      <ul className="answers">
        {languages.map((l) => (
          <li key={l} data-testid={`tight-vs-ample-${engineOfLanguage(l)}`}>
            {memorySentence(out, l)}
          </li>
        ))}
      </ul>
      <table className="data" data-testid="tight-vs-ample-table">
        <thead>
          <tr>
            <th>Language</th>
            <th className="num">Ratio {ample}: capacity (ops/s)</th>
            <th className="num">Instances now</th>
            <th className="num">Ratio {tight}: capacity (ops/s)</th>
            <th className="num">Instances now</th>
            <th className="num">Extra a year</th>
            <th>Capacities from</th>
          </tr>
        </thead>
        <tbody>
          {languages.map((l) => {
            const r = out.languages[l]!;
            const e = engineOfLanguage(l);
            return (
              <tr key={l}>
                <th scope="row">{l}</th>
                <td className="num">{r.ample.capacity_ops_per_s_per_cluster === undefined ? '—' : countText(r.ample.capacity_ops_per_s_per_cluster)}</td>
                <td className="num">{cell(r.ample)}</td>
                <td className="num">{r.tight.capacity_ops_per_s_per_cluster === undefined ? '—' : countText(r.tight.capacity_ops_per_s_per_cluster)}</td>
                <td className="num">{cell(r.tight)}</td>
                <td className="num">{r.extra_cloud_usd_per_year_now === undefined ? '—' : usd(r.extra_cloud_usd_per_year_now)}</td>
                <td className="note" title={[...(r.ample.capacity_rows ?? []), ...(r.tight.capacity_rows ?? [])].join('\n')} data-testid={`tight-vs-ample-from-${e}`}>
                  ratio {ample}: {fromWords(cost, sideOf('ample'), e, r.ample)}; ratio {tight}: {fromWords(cost, sideOf('tight'), e, r.tight)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="note">
        Today’s demand ({countText(out.demand_ops_per_s_now)} ops/s) on {out.instance.name} at {unitPrice(out.instance.usd_per_hour)}/h ({out.instance.price_file}, retrieved{' '}
        {out.instance.retrieved_on}); workload {out.settings.ample.workload}, {out.settings.ample.vcpus} vCPUs, ratio {ample} = {out.settings.ample.memory_gib} GiB and {tight} ={' '}
        {out.settings.tight.memory_gib} GiB. {out.rule}.
      </p>
    </>
  );
}

export function InstanceTradeoff({ cost, result }: { cost: CostState; result: OptionsResult<InstancesOutput> }) {
  const languages = [...new Set([ENGINES.find((e) => e.name === cost.gc)!.language, ENGINES.find((e) => e.name === cost.nongc)!.language])];
  return (
    <section className="cost-option" data-testid="instance-tradeoff" aria-labelledby="instance-tradeoff-h">
      <h2 id="instance-tradeoff-h">Instance type × memory per node</h2>
      {result.state === 'error' ? (
        <p className="problems" role="alert" data-testid="instance-tradeoff-error">
          The model cannot price the instances: {result.message}
        </p>
      ) : result.state !== 'done' ? (
        <p className="note">{result.state === 'computing' ? 'Computing…' : ''}</p>
      ) : (
        <>
          <p className="note">
            A larger instance with more memory, or more smaller ones? Each instance of the price catalogue used whole (all its vCPUs and memory, holding a{' '}
            {result.out.dataset_gib} GiB dataset), at today’s demand of {countText(result.out.demand_ops_per_s_now)} ops/s, workload {result.out.workload}.
          </p>
          <ul className="answers">
            {ENGINES.map((e) => (
              <li key={e.name} data-testid={`tradeoff-${e.name}`}>
                {tradeoffSentence(result.out, e.language)}
              </li>
            ))}
          </ul>
          <table className="data" data-testid="instance-table">
            <thead>
              <tr>
                <th>Instance</th>
                <th className="num">vCPUs</th>
                <th className="num">Memory (GiB)</th>
                <th className="num">Memory : data</th>
                <th className="num">$/h</th>
                <th className="num">$/vCPU-h</th>
                <th className="num">$/GiB-h</th>
                {languages.map((l) => (
                  <th key={l}>{l}</th>
                ))}
                <th>Price from</th>
              </tr>
            </thead>
            <tbody>
              {result.out.instances.map((i) => (
                <tr key={i.name} data-testid={`instance-${i.name}`}>
                  <th scope="row">{i.name}</th>
                  <td className="num">{i.vcpus}</td>
                  <td className="num">{i.memory_gib}</td>
                  <td className="num">{ratioText(i.memory_to_data_ratio)}</td>
                  <td className="num">{unitPrice(i.usd_per_hour)}</td>
                  <td className="num" data-testid={`usd-per-vcpu-${i.name}`}>{unitPrice(i.usd_per_vcpu_hour)}</td>
                  <td className="num" data-testid={`usd-per-gib-${i.name}`}>{unitPrice(i.usd_per_gib_hour)}</td>
                  {languages.map((l) => (
                    <td key={l} className="note">
                      {i.languages[l] ? languageAtWords(i.languages[l]!, i) : '—'}
                    </td>
                  ))}
                  <td className="note" data-testid={`price-source-${i.name}`}>
                    {i.price_file}, retrieved {i.retrieved_on}: {i.source_note}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="note">
            {result.out.rule}. Capacities: the paper’s where it measured that instance whole; the form’s (priced or typed) on the instance whose vCPUs and memory are the form’s.
          </p>
        </>
      )}
    </section>
  );
}
