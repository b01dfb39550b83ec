import { defineConfig } from 'vitest/config';
import { TEST_SAFETY_NET_MS } from './test/helpers/safety-net.js';

/**
 * npm test: the fast self-tests, those that judge, classify, diagnose, render, bound or redact in the test's own
 * process. What needs installs, a browser, real servers or processes of its own is under test/integration/
 * (vitest.integration.config.ts, npm run test:integration).
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/integration/**'],
    globalSetup: ['test/helpers/build-package.ts'],
    // Worker processes, not threads: files start servers, child processes and spec runners of their own.
    pool: 'forks',
    // A worker runs one file after another and keeps the suite's modules loaded between them, instead of loading them
    // again for every file; each file closes its own servers, runs and spec runner in afterAll.
    isolate: false,
    // Four files at once on two cores: many files spend much of their time waiting on a child process, a server or
    // a time-out, and Vitest's default (one worker fewer than the cores) would leave a core idle meanwhile.
    maxWorkers: 4,
    // Bounds against a hang, never a measure of speed (test/helpers/safety-net.ts).
    testTimeout: TEST_SAFETY_NET_MS,
    hookTimeout: TEST_SAFETY_NET_MS,
    maxConcurrency: 4,
    // Runs in the test's own process would otherwise append their reports to a real CI job summary.
    env: { GITHUB_STEP_SUMMARY: '' },
    reporters: ['default', './test/helpers/totals-reporter.ts'],
    // Transformed modules are kept between runs, keyed by their content (Vitest 5 does this by default): a second
    // npm test skips transforming the suite's TypeScript again.
    experimental: { fsModuleCache: true, fsModuleCachePath: 'node_modules/.cache/ticketing-conformance/vitest-self-tests' },
  },
});
