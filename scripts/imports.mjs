// The workspaces' import graph, read from the source (issue 17): every import, re-export,
// dynamic import() and require() of a TypeScript or JavaScript file, resolved through relative
// paths and the workspaces' `exports` maps. `node scripts/imports.mjs` prints the import circles
// and the relative imports that cross a workspace boundary (exit 1 if there are any);
// scripts/test/imports.test.mjs keeps both at none.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'target', 'build', 'test-results', 'playwright-report', '.git', 'vendor']);

/** The workspaces of the root package.json: directory, name and exports map. */
export function readWorkspaces(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return pkg.workspaces.map((dir) => {
    const p = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    return { dir: path.join(root, dir), name: p.name, exports: p.exports ?? {} };
  });
}

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (SKIP_DIRS.has(entry)) continue;
    const full = path.join(dir, entry);
    const st = statSync(full);
    if (st.isDirectory()) sourceFiles(full, out);
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts') && !entry.endsWith('.d.mts')) out.push(full);
  }
  return out;
}

/** The module specifiers a file names: static imports and re-exports, import(), require(). */
export function specifiers(text) {
  // Comments go first, so that an import in a comment is not read; strings are kept.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found = [];
  const patterns = [
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]);
  return found;
}

function resolveFile(base) {
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, `${base}.mjs`, `${base}.js`, path.join(base, 'index.ts')];
  // `./x.js` written for a TypeScript file `x.ts`
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Resolves `sub` ('.', './x/y') through an exports map; undefined when it names no file. */
function throughExports(ws, sub) {
  const pick = (target) => (typeof target === 'string' ? target : target && (target.default ?? target.import ?? target.types));
  if (ws.exports[sub] !== undefined) {
    const t = pick(ws.exports[sub]);
    return t && resolveFile(path.join(ws.dir, t));
  }
  for (const [key, target] of Object.entries(ws.exports)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [pre, post] = [key.slice(0, star), key.slice(star + 1)];
    if (sub.startsWith(pre) && sub.endsWith(post) && sub.length >= pre.length + post.length) {
      const t = pick(target);
      if (!t) continue;
      return resolveFile(path.join(ws.dir, t.replace('*', sub.slice(pre.length, sub.length - post.length))));
    }
  }
  return undefined;
}

/** The import graph: file → the workspace files it imports; and the cross-workspace relative imports. */
export function importGraph(root) {
  const workspaces = readWorkspaces(root);
  const workspaceOf = (file) => workspaces.find((w) => file === w.dir || file.startsWith(w.dir + path.sep));
  const graph = new Map();
  const crossings = [];
  for (const ws of workspaces) {
    for (const file of sourceFiles(ws.dir)) {
      const edges = new Set();
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        let target;
        if (spec.startsWith('.')) {
          target = resolveFile(path.resolve(path.dirname(file), spec));
          const to = target ? workspaceOf(target) : workspaceOf(path.resolve(path.dirname(file), spec));
          if (to && to !== ws) crossings.push(`${path.relative(root, file)} imports ${spec} (in ${to.name})`);
        } else {
          const w = workspaces.find((x) => spec === x.name || spec.startsWith(x.name + '/'));
          if (w) target = throughExports(w, spec === w.name ? '.' : `.${spec.slice(w.name.length)}`);
        }
        if (target) edges.add(target);
      }
      graph.set(file, edges);
    }
  }
  return { graph, crossings };
}

/** The import circles: each strongly connected set of two or more files (or a file importing itself). */
export function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    // iterative Tarjan: the graph is deep enough to overflow a recursive one in places
    const work = [[v, [...(graph.get(v) ?? [])], 0]];
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const w = edges[frame[2]++];
        if (!graph.has(w)) continue;
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, [...(graph.get(w) ?? [])], 0]);
        } else if (onStack.has(w)) {
          low.set(node, Math.min(low.get(node), idx.get(w)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === idx.get(node)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== node);
        if (scc.length > 1 || graph.get(node)?.has(node)) out.push(scc.reverse());
      }
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { graph, crossings } = importGraph(root);
  const found = circles(graph);
  const edges = [...graph.values()].reduce((n, e) => n + e.size, 0);
  console.log(`${graph.size} files, ${edges} imports between them`);
  for (const c of found) console.log(`circle: ${c.map((f) => path.relative(root, f)).join(' -> ')}`);
  for (const c of crossings) console.log(`relative import across a workspace boundary: ${c}`);
  console.log(`${found.length} circles, ${crossings.length} relative imports across a workspace boundary`);
  process.exit(found.length || crossings.length ? 1 : 0);
}
