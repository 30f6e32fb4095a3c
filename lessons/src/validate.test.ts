// The validator's promise to lesson authors: a broken lesson is reported with its file, line
// and what is wrong, and the other lessons still load.
import { describe, expect, it } from 'vitest';
import { formatError, loadLessons, validateLesson, type LessonFiles } from './validate.ts';
import { paper, readLessonFolders } from './node/load-dir.ts';
import { parseJsonWithLines, JsonSyntaxError } from './json-lines.ts';

const good = readLessonFolders().find((f) => f.folder === '01-one-slot')!;
const facts = paper();

function broken(change: (scenario: string) => string, folder = '99-broken'): LessonFiles {
  const scenario = change(good.scenario!).replace('"number": 1', '"number": 99').replace('"id": "one-slot"', '"id": "broken"');
  return { folder, markdown: good.markdown, scenario };
}

describe('lesson validator', () => {
  it('accepts a real lesson', () => {
    expect(validateLesson(good, facts).errors).toEqual([]);
  });

  it('a broken lesson gets an error naming its file, line and what is wrong; the others still load', () => {
    const bad = broken((s) => s.replace('"is": "candidate"', '"is": "boss"'));
    const { lessons, errors } = loadLessons([good, bad], facts);
    expect(lessons.map((l) => l.folder)).toEqual(['01-one-slot']);
    expect(errors).toHaveLength(1);
    const line = bad.scenario!.split('\n').findIndex((l) => l.includes('"boss"')) + 1;
    expect(formatError(errors[0]!)).toBe(`lessons/99-broken/scenario.json:${line}: steps.1.checkpoints.0.is: must be one of "leader", "candidate", "follower"`);
  });

  it('reports a JSON syntax error on its line', () => {
    const bad = broken((s) => s.replace('"view": "cluster",', '"view": "cluster"'));
    const [e] = validateLesson(bad, facts).errors;
    const line = bad.scenario!.split('\n').findIndex((l) => l.includes('"cluster": {')) + 1;
    expect(e).toMatchObject({ file: '99-broken/scenario.json', line });
    expect(e!.message).toMatch(/not valid JSON: expected "," or "}" after the value of "view"/);
  });

  it('names an unknown field, a missing one and an unknown action', () => {
    const bad = broken((s) => s.replace('"do": "quiet"', '"do": "wait"').replace('"section": "Three nodes, nobody in charge",', '"section": "Three nodes, nobody in charge", "colour": "red",'));
    const messages = validateLesson(bad, facts).errors.map((e) => e.message);
    expect(messages).toContain('steps.0: unknown field "colour"');
    expect(messages.some((m) => /steps\.5\.actions\.0: "do" has no kind "wait"/.test(m))).toBe(true);
    const missing = broken((s) => s.replace('"summary":', '"summery":'));
    expect(validateLesson(missing, facts).errors.map((e) => e.message)).toContain('the scenario: missing field "summary"');
  });

  it('checks what a schema cannot: sections, nodes, paper ids, placeholders', () => {
    const bad = broken((s) => s.replace('"section": "Everybody learns"', '"section": "Nobody learns"').replace('{ "do": "restart", "node": 1 }', '').replace('"to": 0 },', '"to": 4 },'));
    const errors = validateLesson(bad, facts).errors;
    expect(errors.map((e) => e.message)).toEqual(expect.arrayContaining(['no section "## Nobody learns" in lesson.md', 'to n4 does not exist in a 3-node cluster']));
    const md = validateLesson({ ...good, markdown: `${good.markdown}\nSee {{paper:no-such-row}} and {{n9.role}}.\n` }, facts).errors;
    expect(md.map((e) => e.message)).toEqual(['no paper value "no-such-row" in data/paper/paper-results.json', '"{{n9.role}}" names n9 but the cluster has 3 nodes']);
    expect(md[0]!.file).toBe('01-one-slot/lesson.md');
    expect(md[0]!.line).toBe(good.markdown!.split('\n').length + 1);
  });

  it('reports a missing file and a folder that does not match the number and id', () => {
    expect(validateLesson({ folder: '05-x', markdown: null, scenario: '{}' }, facts).errors[0]).toEqual({ file: '05-x/lesson.md', line: 1, message: 'missing: every lesson folder has a lesson.md' });
    const misnamed = { ...good, folder: '02-one-slot' };
    expect(validateLesson(misnamed, facts).errors[0]!.message).toBe('the folder must be named 01-one-slot (number and id)');
  });

  it('two lessons with one number: the second is refused', () => {
    const { lessons, errors } = loadLessons([good, { ...good, folder: '01-one-slot' }], facts);
    expect(lessons).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/lesson number 1 is also used/);
  });
});

describe('JSON with lines', () => {
  it('maps pointers to lines and parses like JSON.parse', () => {
    const text = '{\n  "a": [\n    1,\n    { "b": "x\\"y" }\n  ],\n  "c": null\n}';
    const { value, lines } = parseJsonWithLines(text);
    expect(value).toEqual(JSON.parse(text));
    expect(lines.get('/a/1/b')).toBe(4);
    expect(lines.get('/c')).toBe(6);
  });

  it('rejects duplicate keys, trailing commas and junk after the document, with the line', () => {
    for (const [text, line, msg] of [
      ['{\n"a": 1,\n"a": 2}', 3, /twice/],
      ['[1,\n2,\n]', 3, /expected a value/],
      ['{}\nx', 2, /after the end/],
      ['{"a": "b\n"}', 1, /past the end of its line/],
    ] as const) {
      try {
        parseJsonWithLines(text);
        expect.unreachable(text);
      } catch (e) {
        expect(e).toBeInstanceOf(JsonSyntaxError);
        expect((e as JsonSyntaxError).line).toBe(line);
        expect((e as Error).message).toMatch(msg);
      }
    }
  });
});
