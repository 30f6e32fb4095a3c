// Validates the lessons at build time and hands the Learn view the result as a module
// (`virtual:replicant-lessons`): the lessons, the errors of any broken one (shown in the view,
// as the validator words them) and the paper rows they cite. The validator and its JSON-schema
// library stay out of the site's JavaScript. In the dev server an edited lesson file rebuilds
// the module.
//
// The lessons package is TypeScript that Node cannot load by itself here (Vite's config loader
// leaves packages to Node), so its catalogue CLI runs under tsx in a child process.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const ID = 'virtual:replicant-lessons';
const RESOLVED = `\0${ID}`;

function lessonsDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@replicant/lessons/package.json'));
}

export function readCatalogue(dir = lessonsDir()): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'src/node/catalogue-cli.ts')], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
}

export function lessonsCatalogue(): Plugin {
  const dir = lessonsDir();
  return {
    name: 'replicant-lessons',
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      return `export default ${readCatalogue(dir)};`;
    },
    handleHotUpdate({ file, server }) {
      if (!file.startsWith(dir) || !/\/\d{2}-[^/]+\/(lesson\.md|scenario\.json)$/.test(file)) return;
      const mod = server.moduleGraph.getModuleById(RESOLVED);
      if (mod) server.moduleGraph.invalidateModule(mod);
    },
  };
}
