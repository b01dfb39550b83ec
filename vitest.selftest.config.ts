import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxConcurrency: 4,
    reporters: ['default', './test/helpers/totals-reporter.ts'],
  },
});
