import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 300_000,
    // A worker per core. Vitest's default is one fewer: one on this project's 2-core machines,
    // which left a core idle through files that are CPU-bound. No test shares a port, file or
    // directory with another (temporary files come from mkdtemp).
    maxWorkers: availableParallelism(),
  },
});
