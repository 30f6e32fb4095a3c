import { defineConfig } from 'vitest/config';

// Real clusters in cgroups, YCSB and the native servers: slow, and one at a time (they share cgroups and CPUs).
export default defineConfig({
  test: {
    include: ['src/**/*.native.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
