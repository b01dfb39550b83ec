import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A process per test file: files start servers, child processes and spec runners of their own.
    pool: 'forks',
    // Two files at once on two cores: most files spend much of their time waiting on a child process, a server or a
    // time-out, and Vitest's default (one worker fewer than the cores) would leave the second core idle meanwhile.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxConcurrency: 4,
    // Runs in the test's own process would otherwise append their reports to a real CI job summary.
    env: { GITHUB_STEP_SUMMARY: '' },
    reporters: ['default', './test/helpers/totals-reporter.ts'],
  },
});
