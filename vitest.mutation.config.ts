import { defineConfig } from 'vitest/config';

/**
 * The self-tests `npm run mutation` runs against each mutant of the checks and the verdict logic: those that judge
 * in-process (a child process never sees the mutant), so each mutant costs milliseconds. Never part of `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/checks.test.ts', 'test/verdicts.test.ts'],
  },
});
