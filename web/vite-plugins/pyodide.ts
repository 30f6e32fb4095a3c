// Serves Pyodide from this site: the dev server maps /pyodide/* to the npm package, and the
// production build copies the runtime files into dist/pyodide/. No CDN is ever contacted.
import { copyFileSync, createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** What loadPyodide() fetches for the core runtime (no extra packages: the cost model is pure Python). */
export const PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];

const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
  '.json': 'application/json',
};

export function pyodideDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('pyodide/package.json'));
}

/** Where the build writes: Vite's `build.outDir` may be relative to the root or absolute
 * (`vite build --outDir /tmp/x`); joining an absolute one onto the root would write elsewhere. */
export function buildOutDir(root: string, outDir: string): string {
  return resolve(root, outDir);
}

export function pyodidePlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'replicant-pyodide',
    configResolved(config) {
      outDir = buildOutDir(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/pyodide', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0]!;
        if (!PYODIDE_FILES.includes(name)) return next();
        const file = join(pyodideDir(), name);
        res.setHeader('content-type', TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
    writeBundle() {
      const from = pyodideDir();
      const to = join(outDir, 'pyodide');
      mkdirSync(to, { recursive: true });
      for (const name of PYODIDE_FILES) {
        const src = join(from, name);
        if (!existsSync(src)) throw new Error(`pyodide: ${src} is missing; run npm install`);
        const dst = join(to, name);
        // Skip unchanged files (13 MB) on rebuilds.
        if (existsSync(dst) && statSync(dst).size === statSync(src).size && statSync(dst).mtimeMs >= statSync(src).mtimeMs) continue;
        copyFileSync(src, dst);
      }
    },
  };
}
