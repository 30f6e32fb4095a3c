// `npm --workspace @replicant/sim run native-row -- --native FILE --setting PREFIX --card FILE
// [--set KEY=VALUE]… [--probe RATE,…]`: one native setting as `npm run fidelity -- --native` gives
// it to the simulator, for working out why a row misses (docs/benchmarks.md, "Java's simulated
// SLO"). Prints one JSON line for the search and one per probe rate.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { validateCard } from '../models/card.ts';
import { gcRunningSharePercent, nativeSearchSpec, nativeSettings, type NativeRow } from '../fidelity/native.ts';
import { runProbe, searchSlo } from '../search/slo.ts';
import type { RunResult } from '../api.ts';
import { cardWithSettings } from './one-search-args.ts';
import { NATIVE_ROW_USAGE, parseNativeRowArgs } from './fidelity-native-row-args.ts';

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

/** Each node's collector in a run's window: its pauses (count, longest, when), its kinds. */
function collectors(r: RunResult) {
  const from = r.spec.load.warmup_s ?? 0;
  return r.nodes.map((n) => {
    const inWindow = n.gc_events.filter((e) => e.t_s >= from);
    const pauses = inWindow.filter((e) => e.pause_ms > 0);
    const kinds: Record<string, number> = {};
    for (const e of inWindow) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    return {
      node: n.node,
      cpu_utilization: n.mean_cpu_utilization,
      pauses: pauses.length,
      longest_pause_ms: round(Math.max(0, ...pauses.map((e) => e.pause_ms)), 1),
      pauses_at_s: pauses.map((e) => round(e.t_s, 2)),
      kinds,
    };
  });
}

function main(argv: string[]): void {
  const a = parseNativeRowArgs(argv);
  if (a === 'help') {
    console.log(NATIVE_ROW_USAGE);
    return;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const doc = JSON.parse(readFileSync(resolve(cwd, a.native), 'utf8')) as { metadata?: { source_kind?: string }; rows?: NativeRow[] };
  if (doc.metadata?.source_kind !== 'native' || !Array.isArray(doc.rows)) throw new Error(`${a.native}: not a native results file`);
  const { settings } = nativeSettings([{ source: a.native, rows: doc.rows }]);
  const matches = settings.filter((s) => s.key.startsWith(a.setting));
  if (matches.length !== 1) throw new Error(`--setting ${a.setting} names ${matches.length} settings of ${a.native} (${settings.map((s) => s.key).join(', ')})`);
  const s = matches[0]!;
  const card = cardWithSettings(validateCard(JSON.parse(readFileSync(resolve(cwd, a.card), 'utf8'))), a.set);
  const spec = nativeSearchSpec(s, card);
  const load_start = loadavg()[0]!;
  const t0 = performance.now();
  const r = searchSlo(spec, null);
  console.log(JSON.stringify({
    simulated: true,
    model_card: card.version,
    set: Object.fromEntries(a.set),
    setting: s.key,
    sim_vcpus: spec.base.resources.vcpus,
    memory_gib: spec.base.resources.memory_gib ?? null,
    max_kops_at_slo: r.max_ops_per_s_at_slo === null ? null : round(r.max_ops_per_s_at_slo / 1000),
    leader_cpu_utilization: r.leader_cpu_utilization_at_max,
    gc_share_pct: r.best_run ? round(gcRunningSharePercent(r.best_run) ?? 0, 1) : null,
    deciding_event: r.deciding_event ?? null,
    probes: r.probes.map((p) => `${Math.round(p.target_ops_per_s)}${p.met ? ' met' : ' missed'}`),
    wall_s: round((performance.now() - t0) / 1000, 1),
    load_average_start: round(load_start, 2),
  }));
  for (const rate of a.probes) {
    const { probe, run } = runProbe({ ...spec, steady_state_shortcut: false }, rate, null, {});
    console.log(JSON.stringify({
      simulated: true,
      model_card: card.version,
      offered_ops_per_s: rate,
      met: probe.met,
      p99_ms: probe.p99_ms,
      over_slo_share: probe.over_slo_share ?? null,
      window_s: probe.window_s,
      window_event: probe.window_event,
      nodes: collectors(run),
    }));
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(`native-row: ${(e as Error).message}`);
  process.exit(2);
}
