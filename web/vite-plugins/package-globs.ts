// Lets `import.meta.glob` name files of a workspace package by the package's name
// ('@replicant/data/native/**/*.json') instead of a relative path across the workspace. Vite's
// globber only takes paths, so before it runs, each such pattern is rewritten to the path of
// the package's folder (found the way Node finds packages: node_modules upwards), and only for
// a subpath the package's `exports` declares: a glob reaches only what a package publishes.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';

const SCOPE = '@replicant/';

function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === dirname(dir)) throw new Error(`package ${name} not found from ${from}`);
  }
}

/** The path inside the package that `exports` publishes a glob's subpath as, or null when none does. */
export function exportedTarget(exports: unknown, subpath: string): string | null {
  if (exports === undefined) return subpath; // no exports field: every file is public
  if (typeof exports !== 'object' || exports === null) return null;
  for (const [key, target] of Object.entries(exports as Record<string, unknown>)) {
    if (typeof target !== 'string' || !key.endsWith('/*') || !target.endsWith('/*')) continue;
    const prefix = key.slice(2, -1); // "./native/*" -> "native/"
    if (subpath.startsWith(prefix)) return target.slice(2, -1) + subpath.slice(prefix.length);
  }
  return null;
}

/** The pattern as a path relative to the importing file's folder ('../../x/*.json'). */
export function resolvePackageGlob(pattern: string, importerDir: string): string {
  const slash = pattern.indexOf('/', SCOPE.length);
  const name = pattern.slice(0, slash);
  const dir = packageDir(name, importerDir);
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: unknown };
  const target = exportedTarget(exports, pattern.slice(slash + 1));
  if (target === null) throw new Error(`${pattern}: ${name} does not export that path (see its package.json "exports")`);
  const rel = relative(importerDir, join(dir, target)).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

// The first argument of each import.meta.glob call: a string or an array of strings.
const GLOB_CALL = /import\.meta\.glob\s*(?:<[^>]*>)?\s*\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g;
const PACKAGE_PATTERN = /(['"])(@replicant\/[^'"]+)\1/g;

export function packageGlobs(): Plugin {
  return {
    name: 'replicant-package-globs',
    enforce: 'pre',
    transform(code, id) {
      if (!code.includes('import.meta.glob') || !code.includes(SCOPE)) return null;
      const importerDir = dirname(id.split('?')[0]!);
      let changed = false;
      const out = code.replace(GLOB_CALL, (call: string, args: string) =>
        call.replace(
          args,
          args.replace(PACKAGE_PATTERN, (_m, quote: string, pattern: string) => {
            changed = true;
            return `${quote}${resolvePackageGlob(pattern, importerDir)}${quote}`;
          }),
        ),
      );
      return changed ? { code: out, map: null } : null;
    },
  };
}
