// The web package's import graph: other workspace packages only by name (never a relative
// path out of web/), and no circle among its own modules — static, dynamic and type-only
// imports alike, since a lazy import still ties two modules together.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['src', 'e2e', 'vite-plugins', 'bench'].map((d) => join(WEB, d));
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bglob(?:<[^>]*>)?\(\s*\[?\s*)(['"])([^'"]+)\1/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(tsx?|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)].map((m) => m[2]!);
}

const ALL = ROOTS.flatMap(files);

describe('web imports', () => {
  it('reach other workspace packages by name, never by a relative path out of web/', () => {
    const crossing = ALL.flatMap((f) =>
      specifiers(f)
        .filter((s) => s.startsWith('.') && relative(WEB, resolve(dirname(f), s)).startsWith('..'))
        .map((s) => `${relative(WEB, f)}: ${s}`),
    );
    expect(crossing).toEqual([]);
  });

  it('form no circle', () => {
    const graph = new Map<string, string[]>();
    for (const f of ALL) {
      graph.set(
        f,
        specifiers(f)
          .filter((s) => s.startsWith('.') && !s.includes('*'))
          .map((s) => resolve(dirname(f), s.split('?')[0]!)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].map((p) => relative(WEB, p)).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const g of graph.get(f) ?? []) visit(g, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
