// Sums up the chunks scripts/long-runs.sh wrote (data/reliability/long/*.json) per engine
// choice: a Markdown table on stdout and data/reliability/long-summary.json.
//   node scripts/long-runs-report.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(ROOT, 'data/reliability/long');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

// histories the nemesis left undecided and that were checked again later, with a longer limit or
// a newer checker: their verdict replaces the run's own (data/reliability/nemesis-rechecked.json)
const rechecked = new Map(
  JSON.parse(readFileSync(join(ROOT, 'data/reliability/nemesis-rechecked.json'), 'utf8')).rechecked.map((r) => [`${r.report}#${r.engines.join('+')}#${r.seed}`, r.verdict]),
);

// leader kills of the chunks written before the nemesis judged the rate like with like, judged
// again by that rule (engines/nemesis/rederive.ts); chunks written since carry it themselves
const rederived = new Map(
  JSON.parse(readFileSync(join(ROOT, 'data/reliability/leader-kills-rederived.json'), 'utf8')).kills.map((k) => [`${k.report}#${k.engines.join('+')}#${k.seed}#${k.at_ms}`, k]),
);

// the series run on a named build of the servers, by the first seed of their chunks
const serverSeries = JSON.parse(readFileSync(join(ROOT, 'data/reliability/nemesis-servers.json'), 'utf8')).series.sort((x, y) => y.first_seed - x.first_seed);
const serversOf = (file) => {
  const first = Number(/-(\d+)\.json$/.exec(file)?.[1]);
  return serverSeries.find((s) => first >= s.first_seed)?.servers;
};

const torture = new Map();
const nemesis = new Map();
for (const f of files) {
  const report = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  if (f.startsWith('torture-')) {
    for (const r of report.results ?? []) {
      // chunks run with real restarts (--durability) are summed apart from those whose crashes kept state
      // and those with checkpoints (--checkpoints) apart from both
      const name = (r.durability === 'log' || r.durability === 'none' ? `${r.engine}, durability ${r.durability}` : r.engine) + (r.checkpoints ? ', checkpoints' : '');
      const t = torture.get(name) ?? { seeds: 0, ranges: [], failures: 0, safety_failures: 0, liveness_failures: 0, lost_writes: 0, operations: 0, unknown_outcomes: 0, steps: 0, failing_seeds: [], recovery_us_max: 0, wall_s: 0 };
      t.seeds += r.seeds;
      t.ranges.push([r.from, r.from + r.seeds - 1]);
      for (const k of ['failures', 'safety_failures', 'liveness_failures', 'lost_writes', 'operations', 'unknown_outcomes', 'steps', 'wall_s']) t[k] += r[k] ?? 0;
      t.failing_seeds.push(...(r.failing_seeds ?? []));
      t.recovery_us_max = Math.max(t.recovery_us_max, r.recovery_us_max ?? 0);
      torture.set(name, t);
    }
  } else if (f.startsWith('nemesis-')) {
    // runs with restarts from a write-ahead log are summed apart from the kill/pause series,
    // runs whose schedule waited for restarted nodes to come up (restart_readiness) apart again,
    // and runs with partitions and one-way cuts (network namespaces) apart from those
    const series = (/ --durability log/.test(report.command ?? '') ? ', durability log, restarts' : '') + (report.restart_readiness ? ', waits for restarted nodes' : '') + (/ --faults \S*(partition|cut)/.test(report.command ?? '') ? ', partitions and cuts' : '') + (serversOf(f) ? `, ${serversOf(f)}` : '');
    for (const run of report.runs ?? []) {
      const name = run.engines.join('+') + series;
      const n = nemesis.get(name) ?? { runs: 0, failing: 0, linearizable: 0, violation: 0, undecided: 0, lost_writes: 0, acknowledged: 0, unknown: 0, problems: [], unclean_exits: 0, leader_kills: 0, new_leader_within_1s: 0, rate_measured: 0, rate_back_80pct: 0, like_judged: 0, like_back: 0, like_not_judged: {} };
      n.runs++;
      for (const k of run.leader_kills ?? []) {
        n.leader_kills = (n.leader_kills ?? 0) + 1;
        if (k.new_leader_ok) n.new_leader_within_1s = (n.new_leader_within_1s ?? 0) + 1;
        // the pre-kill rule (the first column) and the like-with-like rule (the second)
        const [old, like] = k.baseline !== undefined ? [k.pre_kill_rate_ok, k] : [k.rate_ok, rederived.get(`data/reliability/long/${f}#${run.engines.join('+')}#${run.seed}#${k.at_ms}`)];
        if (like === undefined) throw new Error(`${f} seed ${run.seed}: the leader kill at ${k.at_ms} ms is not in leader-kills-rederived.json (npx tsx nemesis/rederive.ts from engines/)`);
        if (old !== null) n.rate_measured++;
        if (old === true) n.rate_back_80pct++;
        if (like.rate_ok !== null) n.like_judged++;
        if (like.rate_ok === true) n.like_back++;
        if (like.rate_ok === null) n.like_not_judged[like.rate_not_judged] = (n.like_not_judged[like.rate_not_judged] ?? 0) + 1;
      }
      const recheck = rechecked.get(`data/reliability/long/${f}#${run.engines.join('+')}#${run.seed}`);
      if (recheck) {
        n.rechecked = (n.rechecked ?? 0) + 1;
        run.verdict = recheck;
        run.problems = (run.problems ?? []).filter((p) => !p.startsWith('Porcupine could not decide'));
        if (recheck.verdict === 'violation') run.problems.push(`Porcupine (re-checked): not linearizable on keys ${recheck.violating_keys.join(', ')}`);
      }
      const verdict = run.verdict?.verdict ?? 'undecided';
      if (verdict === 'linearizable') n.linearizable++;
      else if (verdict === 'violation' || verdict === 'illegal') n.violation++;
      else n.undecided++;
      n.lost_writes += run.lost_writes?.length ?? 0;
      n.acknowledged += run.acknowledged ?? 0;
      n.unknown += run.unknown ?? 0;
      n.unclean_exits += run.unclean_exits?.length ?? 0;
      // recovery misses were problems in the first chunks of the durability-log series, then
      // reported apart (recovery_misses): summed apart either way
      const missed = [...(run.recovery_misses ?? []), ...(run.problems ?? []).filter((p) => p.startsWith('recovery:'))];
      const problems = (run.problems ?? []).filter((p) => !p.startsWith('recovery:'));
      if (missed.length) {
        n.runs_missing_recovery = (n.runs_missing_recovery ?? 0) + 1;
        n.recovery_misses = [...(n.recovery_misses ?? []), `seed ${run.seed}: ${missed.join('; ')}`];
      }
      if (problems.length) {
        n.failing++;
        n.problems.push(`seed ${run.seed}: ${problems.join('; ')}`);
      }
      nemesis.set(name, n);
    }
  }
}

const applied = [...nemesis.values()].reduce((a, n) => a + (n.rechecked ?? 0), 0);
if (applied !== rechecked.size) throw new Error(`nemesis-rechecked.json names ${rechecked.size} runs, ${applied} found in the chunks`);

const fmt = (x) => x.toLocaleString('en');
const likeCell = (n) => {
  if (!n.leader_kills) return '–';
  const c = (why) => n.like_not_judged[why] ?? 0;
  return `${n.like_back} of ${n.like_judged} (${c('killed node restarting in the window')} / ${c('no baseline for the new leader engine')} / ${c('new leader not known')} / ${c('other fault in the window') + c('run ended first')})`;
};
const out = [];
out.push('| torture | seeds | safety failures | stalls (liveness) | lost acknowledged writes | operations (unknown) | core steps | served again, max ms | failing seeds |');
out.push('|---|---|---|---|---|---|---|---|---|');
for (const [engine, t] of torture) {
  out.push(`| ${engine} | ${fmt(t.seeds)} | ${t.safety_failures} | ${t.liveness_failures} | ${t.lost_writes} | ${fmt(t.operations)} (${fmt(t.unknown_outcomes)}) | ${fmt(t.steps)} | ${(t.recovery_us_max / 1000).toFixed(1)} | ${t.failing_seeds.join(', ') || '–'} |`);
}
out.push('');
out.push('| nemesis cluster | runs | Porcupine: linearizable / violation / undecided | lost acknowledged writes | acknowledged / unknown | runs with a problem | unclean exits | leader kills: new leader ≤ 1 s | rate ≥ 80 % of the pre-kill second at 3 s (of measurable) | rate ≥ 80 % of the new leader engine\'s at 3 s, survivors (of judged; not judged: restarting / no baseline / leader unknown / other fault or end) |');
out.push('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, n] of nemesis) {
  out.push(`| ${name} | ${n.runs} | ${n.linearizable} / ${n.violation} / ${n.undecided} | ${n.lost_writes} | ${fmt(n.acknowledged)} / ${fmt(n.unknown)} | ${n.failing} | ${n.unclean_exits} | ${n.leader_kills ? `${n.new_leader_within_1s} of ${n.leader_kills}` : '–'} | ${n.rate_measured ? `${n.rate_back_80pct} of ${n.rate_measured}` : '–'} | ${likeCell(n)} |`);
}
console.log(out.join('\n'));
for (const [name, n] of nemesis) for (const p of n.problems) console.log(`- nemesis ${name} ${p}`);
writeFileSync(join(ROOT, 'data/reliability/long-summary.json'), JSON.stringify({ torture: Object.fromEntries(torture), nemesis: Object.fromEntries(nemesis) }, null, 2) + '\n');
