// `npm --workspace @replicant/sim run one-search -- --engine E --gib G [--vcpus N] [--card FILE]
// [--set KEY=VALUE]...`: one cold SLO search with the spec the fidelity runner builds for a paper
// point, for working out a mechanism with single searches before a candidate card's whole table
// (docs/fidelity.md). Prints one JSON line with the answer, the deciding event, wall and CPU
// seconds and the load average.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fidelityKnobs } from '../fidelity/specs.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { PAPER_METHOD, measurementSearchSpec } from '../run/measurement.ts';
import { searchSlo } from '../search/slo.ts';
import { ONE_SEARCH_USAGE, cardWithSettings, parseOneSearchArgs } from './one-search-args.ts';

function main(argv: string[]): void {
  const a = parseOneSearchArgs(argv);
  if (a === 'help') {
    console.log(ONE_SEARCH_USAGE);
    return;
  }
  const base = a.card_file ? validateCard(JSON.parse(readFileSync(a.card_file, 'utf8'))) : DEFAULT_CARD;
  const card = cardWithSettings(base, a.set);
  const knobs = { ...fidelityKnobs(a.workload, a.gib, a.vcpus), model_card: card, ...(a.client_threads !== null ? { client_threads: a.client_threads } : {}) };
  const load_start = loadavg()[0]!;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = searchSlo(measurementSearchSpec(knobs, a.engine), null);
  const c = process.cpuUsage(c0);
  const round = (x: number | null, d = 3) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
  console.log(
    JSON.stringify({
      engine: a.engine,
      workload: a.workload,
      gib: a.gib,
      vcpus: a.vcpus,
      card: card.version,
      set: Object.fromEntries(a.set),
      client_threads: a.client_threads ?? PAPER_METHOD.client_threads,
      max_kops_at_slo: r.max_ops_per_s_at_slo === null ? null : round(r.max_ops_per_s_at_slo / 1000),
      leader_cpu_utilization_pct: round(r.leader_cpu_utilization_at_max === null ? null : r.leader_cpu_utilization_at_max * 100, 1),
      deciding_event: r.deciding_event ?? null,
      probes: r.probes.length,
      wall_s: round((performance.now() - t0) / 1000, 1),
      cpu_s: round((c.user + c.system) / 1e6, 1),
      load_average: [round(load_start, 1), round(loadavg()[0]!, 1)],
    }),
  );
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
