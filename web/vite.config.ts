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
    environment: 'jsdom',
    // A shared 2-core machine can take seconds to start a jsdom test; a limit of 5 s failed
    // passing tests there. Tests still wait on state, never on time.
    testTimeout: 60_000,
  },
});
