import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Tests that start real clusters in cgroups run in their own suites (vitest.native.config.ts).
    exclude: ['src/**/*.native.test.ts', '**/node_modules/**'],
    testTimeout: 60_000,
  },
});
