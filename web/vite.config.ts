import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { pyodidePlugin } from './vite-plugins/pyodide.ts';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  plugins: [react(), pyodidePlugin()],
  base: './', // the built site works from any folder of any static server
  server: { fs: { allow: [repoRoot] } },
  build: { outDir: 'dist', assetsInlineLimit: 0, target: 'es2022' },
  worker: { format: 'es' },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});
