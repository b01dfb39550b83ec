import { defineConfig } from 'vitest/config';
import selfTests from './vitest.selftest.config.js';

/**
 * npm run test:integration: the self-tests under test/integration/, those that need installs, a browser, real servers
 * (Apache, nginx, Prometheus) or processes of their own. The same workers, bounds and build as npm test's.
 */
export default defineConfig({
  test: {
    ...selfTests.test,
    include: ['test/integration/**/*.test.ts'],
    exclude: [],
  },
});
