// The workspaces import each other by name, never by a relative path across a boundary, and no
// import circle exists (issue 17); and the reader behind both checks sees what it must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, importGraph, specifiers } from '../imports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the workspaces have no import circle and no relative import across a workspace boundary', () => {
  const { graph, crossings } = importGraph(root);
  assert.ok(graph.size > 100, `only ${graph.size} source files read`);
  const rel = (c) => c.map((f) => path.relative(root, f)).join(' -> ');
  assert.deepEqual(circles(graph).map(rel), []);
  assert.deepEqual(crossings, []);
});

test('reads static, type-only, re-exported, dynamic and required imports, not commented ones', () => {
  const text = [
    "import { a } from './a.ts';",
    "import type { B } from '@replicant/x/b';",
    "export { c } from './c.ts';",
    "import './side.ts';",
    "const D = lazy(() => import('./D.tsx'));",
    "type S = typeof import('@replicant/x/s');",
    "const r = require('./r.js');",
    "// import { no } from './no.ts';",
    "/* import { no2 } from './no2.ts'; */",
    "const url = 'http://example.org/x'; import { e } from './e.ts';",
  ].join('\n');
  assert.deepEqual(specifiers(text).sort(), ['./D.tsx', './a.ts', './c.ts', './r.js', './side.ts', '@replicant/x/b', '@replicant/x/s'].sort());
});

test('finds a circle through a package export and a relative import across workspaces', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'imports-'));
  try {
    const write = (file, text) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write('package.json', JSON.stringify({ workspaces: ['one', 'two'] }));
    write('one/package.json', JSON.stringify({ name: '@t/one', exports: { './*': './src/*.ts' } }));
    write('two/package.json', JSON.stringify({ name: '@t/two', exports: { '.': './index.ts' } }));
    write('one/src/a.ts', "import { b } from './b.ts';\nexport const a = 1;\n");
    write('one/src/b.ts', "import { t } from '@t/two';\nexport const b = t;\n");
    write('two/index.ts', "import { a } from '@t/one/a';\nimport { b } from '../one/src/b.ts';\nexport const t = a + b;\n");
    const { graph, crossings } = importGraph(dir);
    const found = circles(graph).map((c) => c.map((f) => path.relative(dir, f)).sort());
    assert.deepEqual(found, [['one/src/a.ts', 'one/src/b.ts', 'two/index.ts']]);
    assert.equal(crossings.length, 1);
    assert.match(crossings[0], /two\/index\.ts imports \.\.\/one\/src\/b\.ts \(in @t\/one\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
