// Checkpoint predicates: each reads the live state (the engines' inspect views, their trace,
// the paper's data, a computed model) and says in words what it saw, so the player can quote
// the engine rather than the lesson's author.
import type { Checkpoint, NodeSet } from './format.ts';
import { commandText, formatBallot, roundOf, type NodeView } from './views.ts';
import { formatFact, type PaperIndex } from './paper.ts';
import { isModelMetric, modelValue } from './model.ts';
import { describeSettings, formatSimMetric, isSimMetric, simValue, type SimReading } from './experiment.ts';
import { costValue, describeCost, formatCost, isCostMetric, parseCostExpression, type CostReading } from './cost.ts';

export interface World {
  views: (NodeView | null)[];
  /** Every effect line the engines emitted so far (the trace's effects, joined). */
  effects: () => string;
  paper: PaperIndex;
  /** The step's last experiment run (gc-cost lessons), or null before the student runs one. */
  sim?: SimReading | null;
  /** The cost model's answer for the Cost view beside the text, or null while it computes. */
  cost?: CostReading | null;
}

export interface CheckResult {
  ok: boolean;
  /** What was checked, in words ("n1 is leader"). */
  expect: string;
  /** What the state says, read from it ("n1 reports role leader at ballot 1.1"). */
  saw: string;
}

const n = (id: number) => `n${id}`;

function members(world: World, on: NodeSet): { ids: number[]; need: number } {
  const all = world.views.map((_, i) => i);
  if (on === 'all') return { ids: all, need: all.length };
  if (on === 'up') return { ids: all.filter((i) => world.views[i] !== null), need: all.filter((i) => world.views[i] !== null).length };
  if (on === 'majority') return { ids: all, need: Math.floor(all.length / 2) + 1 };
  return { ids: on, need: on.length };
}

function setText(on: NodeSet): string {
  return Array.isArray(on) ? on.map(n).join(', ') : on === 'majority' ? 'a majority' : on === 'up' ? 'every running node' : 'every node';
}

function count(world: World, on: NodeSet, test: (v: NodeView) => boolean, say: (v: NodeView | null, id: number) => string) {
  const { ids, need } = members(world, on);
  const passing = ids.filter((i) => {
    const v = world.views[i];
    return v !== null && v !== undefined && test(v);
  });
  return { ok: passing.length >= need && need > 0, saw: ids.map((i) => `${n(i)}: ${say(world.views[i] ?? null, i)}`).join('; ') };
}

function compareValues(a: number, op: string, b: number): boolean {
  if (op === '<') return a < b;
  if (op === '>') return a > b;
  if (op === '>=') return a >= b;
  if (op === '<=') return a <= b;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

function numberFrom(to: number | string, world: World): { value: number; text: string } {
  if (typeof to === 'number') return { value: to, text: String(to) };
  const f = world.paper.get(to);
  if (!f || typeof f.value !== 'number') throw new Error(`no numeric paper value ${to}`);
  return { value: f.value, text: `${formatFact(f)} (paper, ${f.where})` };
}

function describeState(v: NodeView | null): string {
  return v === null ? 'down' : `${v.role} at ballot ${formatBallot(v.ballot)}`;
}

export function evaluate(c: Checkpoint, world: World): CheckResult {
  const view = (id: number) => world.views[id] ?? null;
  switch (c.check) {
    case 'role': {
      const v = view(c.node);
      return { ok: v?.role === c.is, expect: `${n(c.node)} is ${c.is}`, saw: `${n(c.node)} reports ${describeState(v)}` };
    }
    case 'leader': {
      const v = view(c.node);
      const others = world.views.map((o, i) => ({ o, i })).filter(({ o, i }) => o !== null && i !== c.node);
      const agree = others.every(({ o }) => o!.leader === c.node);
      return {
        ok: v?.role === 'leader' && agree,
        expect: `${n(c.node)} leads and every running node follows it`,
        saw: world.views.map((o, i) => `${n(i)}: ${o === null ? 'down' : o.role === 'leader' ? 'leader' : `follows ${o.leader === null ? 'nobody' : n(o.leader)}`}`).join('; '),
      };
    }
    case 'one_leader':
    case 'no_leader': {
      const leaders = world.views.map((v, i) => (v?.role === 'leader' ? i : -1)).filter((i) => i >= 0);
      return {
        ok: c.check === 'one_leader' ? leaders.length === 1 : leaders.length === 0,
        expect: c.check === 'one_leader' ? 'exactly one node is leader' : 'no node is leader',
        saw: leaders.length === 0 ? 'no node reports role leader' : `leader: ${leaders.map(n).join(', ')}`,
      };
    }
    case 'executed': {
      const r = count(world, c.on, (v) => v.last_executed >= c.index, (v) => (v === null ? 'down' : `executed through ${v.last_executed}`));
      return { ok: r.ok, expect: `index ${c.index} is executed on ${setText(c.on)}`, saw: r.saw };
    }
    case 'not_executed': {
      const v = view(c.node);
      return { ok: v !== null && v.last_executed < c.index, expect: `${n(c.node)} has not executed index ${c.index}`, saw: `${n(c.node)}: ${v === null ? 'down' : `executed through ${v.last_executed}`}` };
    }
    case 'instance': {
      const v = view(c.node);
      const inst = v?.log.find((i) => i.index === c.index);
      const state = v === null ? 'down' : inst ? inst.state : c.index <= v.global_last_executed ? 'trimmed' : 'absent';
      return { ok: state === c.is, expect: `${n(c.node)} holds index ${c.index} as ${c.is.replace('_', ' ')}`, saw: `${n(c.node)} index ${c.index}: ${state.replace('_', ' ')}${inst ? ` (${commandText(inst.command)}, ballot ${formatBallot(inst.ballot)})` : ''}` };
    }
    case 'command': {
      const v = view(c.node);
      const inst = v?.log.find((i) => i.index === c.index);
      const text = inst ? commandText(inst.command) : null;
      return { ok: text === c.is, expect: `${n(c.node)} index ${c.index} holds "${c.is}"`, saw: `${n(c.node)} index ${c.index}: ${v === null ? 'down' : text === null ? 'empty' : `"${text}"`}` };
    }
    case 'kv': {
      const value = (v: NodeView) => v.kv.entries.find(([k]) => k === c.key)?.[1] ?? null;
      const r = count(world, c.on, (v) => value(v) === c.value, (v) => (v === null ? 'down' : `${c.key} = ${value(v) ?? '(absent)'}`));
      return { ok: r.ok, expect: `${c.key} = ${c.value ?? '(absent)'} on ${setText(c.on)}`, saw: r.saw };
    }
    case 'same_state': {
      const { ids } = members(world, c.on);
      const digests = ids.map((i) => view(i)?.kv.digest ?? null);
      return {
        ok: digests.every((d) => d !== null && d === digests[0]),
        expect: `the same key-value state on ${setText(c.on)}`,
        saw: ids.map((i, k) => `${n(i)}: ${digests[k] ?? 'down'}`).join('; '),
      };
    }
    case 'gle': {
      const r = count(
        world,
        c.on,
        (v) => (c.at_least === undefined || v.global_last_executed >= c.at_least) && (c.at_most === undefined || v.global_last_executed <= c.at_most),
        (v) => (v === null ? 'down' : `global_last_executed ${v.global_last_executed}`),
      );
      const bound = [c.at_least !== undefined ? `≥ ${c.at_least}` : '', c.at_most !== undefined ? `≤ ${c.at_most}` : ''].filter(Boolean).join(' and ');
      return { ok: r.ok, expect: `global_last_executed ${bound} on ${setText(c.on)}`, saw: r.saw };
    }
    case 'ballot': {
      const v = view(c.node);
      const leaderOk = c.led_by === undefined || (v !== null && (v.ballot % 256 === 0xf ? null : v.ballot % 256) === c.led_by);
      const roundOk = c.round_at_least === undefined || (v !== null && roundOf(v.ballot) >= c.round_at_least);
      const want = [c.round_at_least !== undefined ? `round ≥ ${c.round_at_least}` : '', c.led_by !== undefined ? `led by ${c.led_by === null ? 'nobody' : n(c.led_by)}` : ''].filter(Boolean).join(', ');
      return { ok: v !== null && leaderOk && roundOk, expect: `${n(c.node)}'s ballot has ${want}`, saw: `${n(c.node)}: ${v === null ? 'down' : `ballot ${formatBallot(v.ballot)}`}` };
    }
    case 'ballot_above': {
      const a = view(c.node);
      const b = view(c.than);
      return { ok: a !== null && b !== null && a.ballot > b.ballot, expect: `${n(c.node)}'s ballot is above ${n(c.than)}'s`, saw: `${n(c.node)}: ${a ? formatBallot(a.ballot) : 'down'}; ${n(c.than)}: ${b ? formatBallot(b.ballot) : 'down'}` };
    }
    case 'behind': {
      const a = view(c.node);
      const b = view(c.than);
      return {
        ok: a !== null && b !== null && b.last_executed - a.last_executed >= c.by_at_least,
        expect: `${n(c.node)} has executed at least ${c.by_at_least} fewer entries than ${n(c.than)}`,
        saw: `${n(c.node)}: ${a ? `executed through ${a.last_executed}` : 'down'}; ${n(c.than)}: ${b ? `executed through ${b.last_executed}` : 'down'}`,
      };
    }
    case 'down':
    case 'up': {
      const v = view(c.node);
      return { ok: c.check === 'down' ? v === null : v !== null, expect: `${n(c.node)} is ${c.check}`, saw: `${n(c.node)}: ${describeState(v)}` };
    }
    case 'counter': {
      const v = view(c.node);
      const value = v?.counters[c.name] ?? 0;
      return { ok: v !== null && value >= c.at_least, expect: `${n(c.node)} counted ${c.name} ≥ ${c.at_least}`, saw: `${n(c.node)}: ${v === null ? 'down' : `${c.name} = ${value}`}` };
    }
    case 'violation': {
      const lines = world.effects().split('\n').filter((l) => l.includes('"kind":"violation"'));
      return {
        ok: c.present === lines.length > 0,
        expect: c.present ? 'an engine traced a safety violation' : 'no engine traced a safety violation',
        saw: lines.length === 0 ? 'no violation in the trace' : `trace: ${lines[0]}`,
      };
    }
    case 'paper': {
      const f = world.paper.get(c.id);
      if (!f || typeof f.value !== 'number') return { ok: false, expect: `paper value ${c.id}`, saw: 'not in data/paper' };
      const to = numberFrom(c.to, world);
      return { ok: compareValues(f.value, c.compare, to.value), expect: `${c.id} ${c.compare} ${to.text}`, saw: `${formatFact(f)} (paper, ${f.where}: “${f.quote}”)` };
    }
    case 'model': {
      if (!isModelMetric(c.metric)) return { ok: false, expect: `model value ${c.metric}`, saw: 'no such model metric' };
      const value = modelValue(c.metric, world.paper);
      const to = numberFrom(c.to, world);
      return { ok: compareValues(value, c.compare, to.value), expect: `${c.metric} ${c.compare} ${to.text}`, saw: `computed ${c.metric} = ${value}` };
    }
    case 'sim': {
      // "to" may name another metric of the same run ("sim:service_p99_ms").
      const other = typeof c.to === 'string' && c.to.startsWith('sim:') ? c.to.slice(4) : null;
      const to =
        other === null
          ? numberFrom(c.to, world)
          : world.sim && isSimMetric(other)
            ? { value: simValue(world.sim, other), text: `simulated ${other} (${formatSimMetric(other, world.sim[other])})` }
            : { value: Number.NaN, text: `simulated ${other}` };
      const setting = [c.engine ? `on ${c.engine}` : '', c.ratio !== undefined ? `at memory:data ${c.ratio}` : '', c.vcpus !== undefined ? `with ${c.vcpus} vCPUs` : ''].filter(Boolean).join(' ');
      const expect = `simulated ${c.metric}${setting ? ` ${setting}` : ''} ${c.compare} ${to.text}`;
      const r = world.sim ?? null;
      if (!isSimMetric(c.metric)) return { ok: false, expect, saw: 'no such simulator metric' };
      if (r === null) return { ok: false, expect, saw: 'no simulator run yet' };
      const value = simValue(r, c.metric);
      const settingsOk = (c.engine === undefined || r.settings.engine === c.engine) && (c.ratio === undefined || r.settings.ratio === c.ratio) && (c.vcpus === undefined || r.settings.vcpus === c.vcpus);
      return {
        // Shares compare in percent, as shown; times in ms rounded as shown.
        ok: settingsOk && compareValues(value, c.compare, to.value),
        expect,
        saw: `simulated (model card ${r.model_card_version}; ${describeSettings(r.settings)}): ${c.metric} = ${formatSimMetric(c.metric, r[c.metric])}`,
      };
    }
    case 'cost': {
      const r = world.cost ?? null;
      const what = `the cost model's ${c.metric.replace(/_/g, ' ')}${c.language ? ` for ${c.language}` : ''}`;
      // "to" may name another value of the same answer ("cost:capacity_ops_per_s_per_cluster:C++").
      const other = typeof c.to === 'string' && c.to.startsWith('cost:') ? parseCostExpression(c.to.slice(5)) : null;
      const to =
        other === null
          ? numberFrom(c.to, world)
          : r && isCostMetric(other.metric)
            ? { value: costValue(r, other.metric, other.language), text: `${other.metric.replace(/_/g, ' ')}${other.language ? ` for ${other.language}` : ''} (${formatCost(r, other.metric, other.language)})` }
            : { value: Number.NaN, text: c.to as string };
      const setting = [c.ratio !== undefined ? `at memory:data ${c.ratio}` : '', c.non_gc || c.gc ? `comparing ${c.non_gc ?? 'its non-GC language'} with ${c.gc ?? 'its GC language'}` : ''].filter(Boolean).join(', ');
      const expect = `${what}${setting ? ` ${setting}` : ''} ${c.compare} ${to.text}`;
      if (!isCostMetric(c.metric)) return { ok: false, expect, saw: 'no such cost model value' };
      if (r === null) return { ok: false, expect, saw: 'the cost model has not answered yet (the Cost view computes it)' };
      const value = costValue(r, c.metric, c.language);
      const settingsOk = (c.ratio === undefined || r.ratio === c.ratio) && (c.gc === undefined || r.gc === c.gc) && (c.non_gc === undefined || r.non_gc === c.non_gc);
      return { ok: settingsOk && compareValues(value, c.compare, to.value), expect, saw: `${describeCost(r)}: ${formatCost(r, c.metric, c.language)}` };
    }
  }
}
