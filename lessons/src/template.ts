// Placeholders in lesson prose, prompts and hints: `{{n1.role}}`, `{{leader}}`,
// `{{paper:ID}}`, `{{model:METRIC}}`. The player fills them from the live state, so text that
// quotes a state reads it from the engine in front of the student.
import type { World } from './checkpoints.ts';
import { formatFact } from './paper.ts';
import { isModelMetric, modelValue } from './model.ts';
import { formatBallot } from './views.ts';
import { formatSimMetric, isSimMetric } from './experiment.ts';
import { costValue, formatCost, isCostMetric, parseCostExpression } from './cost.ts';

export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'live'; text: string; expr: string }
  | { kind: 'paper'; text: string; id: string; where: string; quote: string }
  | { kind: 'model'; text: string; metric: string }
  | { kind: 'sim'; text: string; metric: string; model_card_version: string | null }
  | { kind: 'cost'; text: string; metric: string; model: string | null };

const PLACEHOLDER = /\{\{\s*([^}]+?)\s*\}\}/g;
const NODE_FIELDS = ['role', 'ballot', 'leader', 'last_executed', 'last_index', 'gle', 'log_length', 'kv_size', 'promises', 'prepare_ballot'] as const;

/** Why an expression cannot be filled, or null when it can (checked by the validator). */
export function checkExpression(expr: string, paperIds: ReadonlySet<string>, nodes: number): string | null {
  if (expr === 'leader' || expr === 'time_ms') return null;
  if (expr.startsWith('paper:')) return paperIds.has(expr.slice(6)) ? null : `no paper value "${expr.slice(6)}" in data/paper/paper-results.json`;
  if (expr.startsWith('model:')) return isModelMetric(expr.slice(6)) ? null : `no model metric "${expr.slice(6)}"`;
  if (expr.startsWith('sim:')) return isSimMetric(expr.slice(4)) ? null : `no simulator metric "${expr.slice(4)}"`;
  if (expr.startsWith('cost:')) return isCostMetric(parseCostExpression(expr.slice(5)).metric) ? null : `no cost model value "${expr.slice(5)}"`;
  const m = /^n(\d+)\.(\w+)(?:\.(.+))?$/.exec(expr);
  if (!m) return `"{{${expr}}}" is not a placeholder (try n1.role, leader, paper:ID, model:METRIC)`;
  if (Number(m[1]) >= nodes) return `"{{${expr}}}" names n${m[1]} but the cluster has ${nodes} nodes`;
  if (m[2] === 'kv' && m[3]) return null;
  return (NODE_FIELDS as readonly string[]).includes(m[2]!) ? null : `"{{${expr}}}": unknown field ${m[2]} (one of ${NODE_FIELDS.join(', ')}, kv.KEY)`;
}

export function expressions(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

export interface FillContext {
  /** What placeholders read: the nodes' views, the paper's rows, the step's experiment run. */
  world: Pick<World, 'views' | 'paper' | 'sim' | 'cost'> | null;
  time_us?: number;
}

/** The value of one expression, as text; "…" when the live state is not there yet. */
export function fillExpression(expr: string, ctx: FillContext): Segment {
  const world = ctx.world;
  if (expr.startsWith('paper:')) {
    const f = world?.paper.get(expr.slice(6));
    return f ? { kind: 'paper', text: formatFact(f), id: f.id, where: f.where, quote: f.quote } : { kind: 'text', text: '…' };
  }
  if (expr.startsWith('model:')) {
    const metric = expr.slice(6);
    const unit = metric.endsWith('_ms') ? ' ms' : metric === 'co.open_share_over_slo' ? ' %' : '';
    return world && isModelMetric(metric) ? { kind: 'model', text: `${modelValue(metric, world.paper)}${unit}`, metric } : { kind: 'text', text: '…' };
  }
  if (expr.startsWith('sim:')) {
    const metric = expr.slice(4);
    const r = world?.sim ?? null;
    if (!isSimMetric(metric)) return { kind: 'text', text: '?' };
    return r ? { kind: 'sim', text: formatSimMetric(metric, r[metric]), metric, model_card_version: r.model_card_version } : { kind: 'sim', text: '(not run yet)', metric, model_card_version: null };
  }
  if (expr.startsWith('cost:')) {
    const { metric, language } = parseCostExpression(expr.slice(5));
    const r = world?.cost ?? null;
    if (!isCostMetric(metric)) return { kind: 'text', text: '?' };
    if (!r) return { kind: 'cost', text: '(the cost model is computing)', metric, model: null };
    // A numeric read gives the number; the text says it in words.
    const v = costValue(r, metric, language);
    return { kind: 'cost', text: metric === 'break_even_month' && Number.isFinite(v) ? String(v) : formatCost(r, metric, language), metric, model: r.model };
  }
  if (!world) return { kind: 'live', text: '…', expr };
  if (expr === 'time_ms') return { kind: 'live', text: ((ctx.time_us ?? 0) / 1000).toFixed(1), expr };
  if (expr === 'leader') {
    const i = world.views.findIndex((v) => v?.role === 'leader');
    return { kind: 'live', text: i < 0 ? 'no leader' : `n${i}`, expr };
  }
  const m = /^n(\d+)\.(\w+)(?:\.(.+))?$/.exec(expr);
  const v = m ? world.views[Number(m[1])] : undefined;
  if (!m || v === undefined) return { kind: 'live', text: '?', expr };
  if (v === null) return { kind: 'live', text: 'down', expr };
  const text = (() => {
    switch (m[2]) {
      case 'role':
        return v.role;
      case 'ballot':
        return formatBallot(v.ballot);
      case 'leader':
        return v.leader === null ? 'nobody' : `n${v.leader}`;
      case 'last_executed':
        return String(v.last_executed);
      case 'last_index':
        return String(v.last_index);
      case 'gle':
        return String(v.global_last_executed);
      case 'log_length':
        return String(v.log.length);
      case 'kv_size':
        return String(v.kv.size);
      case 'prepare_ballot':
        return v.prepare ? formatBallot(v.prepare.ballot) : 'none (no prepare open)';
      case 'promises':
        return v.prepare ? String(v.prepare.promises) : 'none (no prepare open)';
      case 'kv':
        return v.kv.entries.find(([k]) => k === m[3])?.[1] ?? '(absent)';
      default:
        return '?';
    }
  })();
  return { kind: 'live', text, expr };
}

export function fill(text: string, ctx: FillContext): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index! > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push(fillExpression(m[1]!, ctx));
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export function fillToString(text: string, ctx: FillContext): string {
  return fill(text, ctx)
    .map((s) => s.text)
    .join('');
}
