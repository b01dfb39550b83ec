/**
 * The machine's environment without the test runner's, the suite's settings, a job summary or a proxy: what a user's
 * shell would hold. `npm test` exports its own settings as npm_config_* (prefix and local_prefix among them), which
 * would point npm at this repository.
 */
export const userEnv: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      !name.startsWith('CONFORMANCE_') &&
      !name.startsWith('VITEST') &&
      !name.startsWith('npm_') &&
      name !== 'NODE_OPTIONS' &&
      name !== 'GITHUB_STEP_SUMMARY' &&
      !/^(https?|no)_proxy$/i.test(name),
  ),
);
