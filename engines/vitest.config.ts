import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['loader/**/*.test.ts', 'conformance/src/**/*.test.ts', 'scripted/**/*.test.ts', 'cluster/**/*.test.ts', 'nemesis/**/*.test.ts'],
    testTimeout: 120_000,
  },
});
