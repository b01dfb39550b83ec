import { defineConfig } from 'vitest/config';

/**
 * The self-tests `npm run mutation` runs against each mutant of the checks, the classification, the diagnosis and the
 * verdict logic: those that call that code in-process (a child process never sees the mutant), so each mutant costs
 * milliseconds. Never part of `npm test`.
 */
export default defineConfig({
  test: {
    include: [
      'test/checks.test.ts',
      'test/official-client-checks.test.ts',
      'test/verdicts.test.ts',
      'test/classify.test.ts',
      'test/unjudged.test.ts',
      'test/diagnosis.test.ts',
      'test/fronts.test.ts',
      'test/throttled-answers.test.ts',
      'test/vendor-answers.test.ts',
      'test/causes.test.ts',
      'test/doctor/rules.test.ts',
    ],
  },
});
