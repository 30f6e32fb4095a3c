import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { pyodidePlugin } from './vite-plugins/pyodide.ts';
import { packageGlobs } from './vite-plugins/package-globs.ts';
import { lessonsCatalogue } from './vite-plugins/lessons.ts';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  plugins: [react(), pyodidePlugin(), packageGlobs(), lessonsCatalogue()],
  base: './', // the built site works from any folder of any static server
  server: { fs: { allow: [repoRoot] } },
  build: { outDir: 'dist', assetsInlineLimit: 0, target: 'es2022' },
  // Workers are bundled on their own: they need the same glob rewriting.
  worker: { format: 'es', plugins: () => [packageGlobs()] },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'vite-plugins/**/*.test.ts'],
    // Most tests are plain Node; the few that render or need `document` say
    // `// @vitest-environment jsdom` on their first line. Starting jsdom costs a second or two
    // per file on this 2-core machine, which every file paid when it was the default.
    environment: 'node',
    // A shared 2-core machine can take seconds to start a jsdom test; a limit of 5 s failed
    // passing tests there. Tests still wait on state, never on time.
    testTimeout: 60_000,
    // A worker per core. Vitest's default is one fewer: one on this project's 2-core machines,
    // which left a core idle through files that are CPU-bound. No test shares a port, file or
    // directory with another (temporary files come from mkdtemp).
    maxWorkers: availableParallelism(),
  },
});
