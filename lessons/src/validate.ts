// Checks one lesson folder (lesson.md + scenario.json) against the schema and against the
// things a schema cannot say (a step names a section that exists; a placeholder names a real
// paper row; a node exists in the cluster). Every problem is reported as file, line, what is
// wrong; one broken lesson never stops the others from loading.
import { Ajv, type ErrorObject } from 'ajv';
import schema from '../schema/scenario.schema.json' with { type: 'json' };
import type { Checkpoint, Lesson, LessonAction, LessonError, Scenario } from './format.ts';
import { JsonSyntaxError, lineOf, parseJsonWithLines } from './json-lines.ts';
import { parseLessonMarkdown } from './markdown.ts';
import { checkExpression, expressions } from './template.ts';
import { isModelMetric } from './model.ts';
import { EXPERIMENT_KNOBS, chooseSettings, experimentDefaults, isSimMetric, type Experiment } from './experiment.ts';
import { isCostMetric, parseCostExpression } from './cost.ts';
import type { PaperIndex } from './paper.ts';

export interface LessonFiles {
  /** The folder name, e.g. "01-one-slot" */
  folder: string;
  markdown: string | null;
  scenario: string | null;
}

const ajv = new Ajv({ allErrors: true, discriminator: true, strict: false });
const validateScenario = ajv.compile<Scenario>(schema);

function schemaMessage(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'the scenario' : e.instancePath.slice(1).replace(/\//g, '.');
  switch (e.keyword) {
    case 'additionalProperties':
      return `${at}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    case 'required':
      return `${at}: missing field "${(e.params as { missingProperty: string }).missingProperty}"`;
    case 'enum':
      return `${at}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'discriminator': {
      const p = e.params as { tag: string; tagValue?: unknown };
      return `${at}: "${p.tag}" ${p.tagValue === undefined ? 'is missing' : `has no kind ${JSON.stringify(p.tagValue)}`}`;
    }
    default:
      return `${at}: ${e.message ?? 'is not valid'}`;
  }
}

export function validateLesson(files: LessonFiles, paper: PaperIndex): { lesson: Lesson | null; errors: LessonError[] } {
  const md = `${files.folder}/lesson.md`;
  const sc = `${files.folder}/scenario.json`;
  const errors: LessonError[] = [];
  if (files.markdown === null) errors.push({ file: md, line: 1, message: 'missing: every lesson folder has a lesson.md' });
  if (files.scenario === null) errors.push({ file: sc, line: 1, message: 'missing: every lesson folder has a scenario.json' });
  if (files.markdown === null || files.scenario === null) return { lesson: null, errors };

  let parsed;
  try {
    parsed = parseJsonWithLines(files.scenario);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { lesson: null, errors: [{ file: sc, line: e.line, message: `not valid JSON: ${e.message}` }] };
    throw e;
  }
  const at = (pointer: string) => lineOf(parsed.lines, pointer);
  if (!validateScenario(parsed.value)) {
    // One message per place: a oneOf's branches each complain; the first is the useful one.
    const seen = new Set<string>();
    for (const e of validateScenario.errors ?? []) {
      if (e.keyword === 'oneOf' || e.keyword === 'if') continue;
      const key = `${e.instancePath}|${e.keyword}`;
      if (seen.has(key)) continue;
      seen.add(key);
      errors.push({ file: sc, line: at(e.instancePath), message: schemaMessage(e) });
    }
    return { lesson: null, errors };
  }
  const scenario = parsed.value as Scenario;
  const doc = parseLessonMarkdown(files.markdown);
  if (doc.title === null) errors.push({ file: md, line: 1, message: 'no "# " title line' });
  for (const d of doc.duplicates) errors.push({ file: md, line: d.line, message: `section "${d.heading}" appears twice` });

  const folderMatch = /^(\d{2})-([a-z0-9-]+)$/.exec(files.folder);
  if (!folderMatch || Number(folderMatch[1]) !== scenario.number || folderMatch[2] !== scenario.id) {
    errors.push({ file: sc, line: at('/id'), message: `the folder must be named ${String(scenario.number).padStart(2, '0')}-${scenario.id} (number and id)` });
  }
  const nodes = scenario.cluster?.nodes ?? 0;
  if (scenario.view === 'cluster' && !scenario.cluster) errors.push({ file: sc, line: at('/view'), message: 'a cluster lesson needs "cluster": { "nodes", "seed" }' });
  const paperIds = new Set(paper.keys());

  const checkText = (text: string, file: string, line: number) => {
    for (const expr of expressions(text)) {
      const why = checkExpression(expr, paperIds, nodes);
      if (why) errors.push({ file, line, message: why });
    }
  };
  const checkNodeFields = (obj: Record<string, unknown>, pointer: string) => {
    for (const k of ['node', 'from', 'to', 'than']) {
      const v = obj[k];
      if (typeof v === 'number' && v >= nodes) errors.push({ file: sc, line: at(`${pointer}/${k}`), message: `${k} n${v} does not exist in a ${nodes}-node cluster` });
    }
  };
  const checkActions = (list: LessonAction[] | undefined, pointer: string, experiment?: Experiment, showMe = false) => {
    list?.forEach((a, k) => {
      if (a.do === 'simulate') {
        if (!showMe) errors.push({ file: sc, line: at(`${pointer}/${k}`), message: 'a "simulate" action belongs in an exercise\'s show_me (the student runs the experiment)' });
        else if (!experiment) errors.push({ file: sc, line: at(`${pointer}/${k}`), message: 'a "simulate" action needs the step to have an "experiment"' });
        else {
          try {
            const { do: _do, ...change } = a;
            chooseSettings(experiment, change);
          } catch (e) {
            errors.push({ file: sc, line: at(`${pointer}/${k}`), message: (e as Error).message });
          }
        }
        return;
      }
      if (a.do === 'cost') {
        if (!showMe) errors.push({ file: sc, line: at(`${pointer}/${k}`), message: 'a "cost" action belongs in an exercise\'s show_me (the student sets the Cost view)' });
        return;
      }
      if (nodes === 0) errors.push({ file: sc, line: at(`${pointer}/${k}`), message: 'an action needs a cluster (this lesson has none)' });
      checkNodeFields(a as unknown as Record<string, unknown>, `${pointer}/${k}`);
    });
  };
  const checkChecks = (list: Checkpoint[] | undefined, pointer: string, experiment?: Experiment) => {
    list?.forEach((c, k) => {
      const p = `${pointer}/${k}`;
      if (c.check === 'cost') {
        if (typeof c.to === 'string' && (c.to.startsWith('cost:') ? !isCostMetric(parseCostExpression(c.to.slice(5)).metric) : !paperIds.has(c.to))) errors.push({ file: sc, line: at(`${p}/to`), message: `no paper value or cost model value "${c.to}"` });
        if (c.metric === 'capacity_ops_per_s_per_cluster' && !c.language) errors.push({ file: sc, line: at(p), message: 'a capacity is per language: give "language"' });
        return;
      }
      if (c.check === 'sim') {
        if (!experiment) errors.push({ file: sc, line: at(p), message: 'a "sim" checkpoint reads the step\'s experiment, but the step has none' });
        if (typeof c.to === 'string' && (c.to.startsWith('sim:') ? !isSimMetric(c.to.slice(4)) : !paperIds.has(c.to))) errors.push({ file: sc, line: at(`${p}/to`), message: `no paper value or simulator metric "${c.to}"` });
        return;
      }
      // A paper or model check's "to" is a value, not a node.
      if (c.check !== 'paper' && c.check !== 'model') checkNodeFields(c as unknown as Record<string, unknown>, p);
      if (c.check === 'paper' && !paperIds.has(c.id)) errors.push({ file: sc, line: at(`${p}/id`), message: `no paper value "${c.id}" in data/paper/paper-results.json` });
      if ((c.check === 'paper' || c.check === 'model') && typeof c.to === 'string' && !paperIds.has(c.to)) errors.push({ file: sc, line: at(`${p}/to`), message: `no paper value "${c.to}"` });
      if (c.check === 'model' && !isModelMetric(c.metric)) errors.push({ file: sc, line: at(`${p}/metric`), message: `no model metric "${c.metric}"` });
      if (c.check !== 'paper' && c.check !== 'model' && nodes === 0) errors.push({ file: sc, line: at(p), message: `a "${c.check}" checkpoint reads engine state, but this lesson has no cluster` });
    });
  };

  // Lesson prose is shared by every step: it cannot quote one step's experiment.
  const checkProse = (text: string, file: string, line: number) => {
    if (expressions(text).some((e) => e.startsWith('sim:'))) errors.push({ file, line, message: '{{sim:…}} reads a step\'s experiment run: use it in that step\'s exercise or question, not in the prose' });
    if (expressions(text).some((e) => e.startsWith('cost:'))) errors.push({ file, line, message: '{{cost:…}} reads the Cost view a step shows: use it in that step\'s exercise or question, not in the prose' });
  };
  checkText(scenario.title, sc, at('/title'));
  checkText(scenario.summary, sc, at('/summary'));
  for (const s of doc.sections.values()) {
    s.body.split('\n').forEach((l, k) => {
      checkText(l, md, s.line + 1 + k);
      checkProse(l, md, s.line + 1 + k);
    });
  }
  scenario.steps.forEach((step, i) => {
    const p = `/steps/${i}`;
    if (!doc.sections.has(step.section)) errors.push({ file: sc, line: at(`${p}/section`), message: `no section "## ${step.section}" in lesson.md` });
    const exp = step.experiment;
    if (exp) {
      const own = experimentDefaults(exp);
      for (const k of EXPERIMENT_KNOBS) {
        const offered = exp.vary[k] as readonly unknown[] | undefined;
        if (offered && !offered.includes(own[k])) errors.push({ file: sc, line: at(`${p}/experiment/vary/${k}`), message: `the values offered for ${k} must include the experiment's own (${String(own[k])})` });
      }
      if (Object.keys(exp.vary).length === 0) errors.push({ file: sc, line: at(`${p}/experiment/vary`), message: 'an experiment offers at least one knob to turn' });
    }
    checkActions(step.actions, `${p}/actions`);
    checkChecks(step.checkpoints, `${p}/checkpoints`);
    if (step.exercise) {
      checkText(step.exercise.goal, sc, at(`${p}/exercise/goal`));
      step.exercise.hints.forEach((h, k) => checkText(h, sc, at(`${p}/exercise/hints/${k}`)));
      checkActions(step.exercise.show_me, `${p}/exercise/show_me`, exp, true);
      checkChecks(step.exercise.done_when, `${p}/exercise/done_when`, exp);
    }
    // The cost model answers for the Cost view beside the text: a step reading it shows that view.
    const shownView = step.panel?.view ?? scenario.view;
    const readsCost = [...(step.checkpoints ?? []), ...(step.exercise?.done_when ?? [])].some((c) => c.check === 'cost') || (step.exercise?.show_me ?? []).some((a) => a.do === 'cost') || JSON.stringify(step).includes('cost:');
    if (readsCost && shownView !== 'cost') errors.push({ file: sc, line: at(p), message: 'this step reads the cost model, but does not show the Cost view (its "panel" view is ' + shownView + ')' });
    const usesSim = (text: string) => expressions(text).some((e) => e.startsWith('sim:'));
    const simTexts = [step.exercise?.goal ?? '', ...(step.exercise?.hints ?? []), step.question ? JSON.stringify(step.question) : ''];
    if (!exp && simTexts.some((t) => usesSim(t) || t.includes('"read":"sim:'))) errors.push({ file: sc, line: at(p), message: 'this step reads {{sim:…}} but has no "experiment"' });
    const q = step.question;
    if (q) {
      checkText(q.prompt, sc, at(`${p}/question/prompt`));
      if (q.kind === 'choice') {
        if (!q.options.some((o) => o.correct)) errors.push({ file: sc, line: at(`${p}/question/options`), message: 'a choice question needs at least one correct option' });
        q.options.forEach((o, k) => checkText(`${o.text} ${o.why}`, sc, at(`${p}/question/options/${k}`)));
      } else {
        if (typeof q.answer !== 'number') {
          const why = checkExpression(q.answer.read, paperIds, nodes);
          if (why) errors.push({ file: sc, line: at(`${p}/question/answer/read`), message: why });
        }
        checkText(`${q.why_right} ${q.why_wrong}`, sc, at(`${p}/question`));
      }
    }
    for (const [k, id] of (step.panel?.cites ?? []).entries()) {
      if (!paperIds.has(id)) errors.push({ file: sc, line: at(`${p}/panel/cites/${k}`), message: `no paper value "${id}"` });
    }
  });
  if (errors.length > 0) return { lesson: null, errors };
  return { lesson: { folder: files.folder, scenario, title: doc.title!, sections: doc.sections }, errors: [] };
}

/** Validates every folder; also that lesson numbers are unique. Broken lessons are left out. */
export function loadLessons(all: LessonFiles[], paper: PaperIndex): { lessons: Lesson[]; errors: LessonError[] } {
  const lessons: Lesson[] = [];
  const errors: LessonError[] = [];
  for (const files of [...all].sort((a, b) => a.folder.localeCompare(b.folder))) {
    const r = validateLesson(files, paper);
    errors.push(...r.errors);
    if (!r.lesson) continue;
    const clash = lessons.find((l) => l.scenario.number === r.lesson!.scenario.number);
    if (clash) {
      errors.push({ file: `${files.folder}/scenario.json`, line: 1, message: `lesson number ${r.lesson.scenario.number} is also used by ${clash.folder}` });
      continue;
    }
    lessons.push(r.lesson);
  }
  return { lessons, errors };
}

export function formatError(e: LessonError): string {
  return `lessons/${e.file}:${e.line}: ${e.message}`;
}
