import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { requirementTags } from './src/requirements/tags.js';

/**
 * The specs under plain Vitest, judging a recording (the recording.json a run writes) instead of a live target:
 *   CONFORMANCE_RECORDING=reports/recording.json npx vitest --config vitest.specs.config.ts [-t REQUIREMENT-ID]
 *   npm run specs -- --recording reports/recording.json [-t REQUIREMENT-ID]
 * Without one, the recording of the reference server kept under test/fixtures/recordings/ is judged.
 * Allure results are written by allure-vitest, as in any Vitest project, to reports/specs/allure-results/
 * (ALLURE_RESULTS_DIR to change it): `npm run report:allure -- reports/specs/allure-results` renders them.
 */
const recording = resolve(process.env.CONFORMANCE_RECORDING ?? 'test/fixtures/recordings/reference.recording.json');
process.env.CONFORMANCE_RECORDING = recording;
const allureResults = resolve(process.env.ALLURE_RESULTS_DIR ?? 'reports/specs/allure-results');

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    setupFiles: ['specs/setup/provide-recording.ts'],
    reporters: ['default', ['allure-vitest/reporter', { resultsDir: allureResults }]],
    // Every spec file judges the same recording, in one worker.
    isolate: false,
    fileParallelism: false,
    tags: requirementTags,
    // A changed recording is judged again in watch mode.
    forceRerunTriggers: [recording],
    experimental: { fsModuleCache: true, fsModuleCachePath: 'node_modules/.cache/ticketing-conformance/vitest-specs' },
  },
});
