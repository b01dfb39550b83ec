import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import type { CliRun } from './helpers/run-cli.js';

const TOKEN = 'attribution-token-77aa01';
const { inProcess, cleanUpAfterAll } = fileResources();

async function runAgainst(variants: string[]): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants });
  try {
    const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
    cleanUpAfterAll(run.cleanup);
    return run;
  } finally {
    await server.close();
  }
}

/** Every variant is recorded once, all at once, and the recordings judged together by one spec runner. */
let runOf: (variant: string) => Promise<CliRun>;
beforeAll(async () => {
  const variants = ['authorization-stripped', 'status-ok', 'html-page-200', 'password-checked'];
  const started = startAll(variants.map((variant) => [variant, () => runAgainst([variant])]));
  runOf = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

const partiesOfNonPassing = (report: Report | undefined): Record<string, string | undefined> =>
  Object.fromEntries(
    (report?.requirements ?? [])
      .filter((result) => ['fail', 'warn', 'error'].includes(result.verdict))
      .map((result) => [result.id, result.party]),
  );

test('an Authorization header stripped on the way to /api/... while /index.php/api/... gets it is blamed on the web server, with the Apache advice', async () => {
  const run = await runOf('authorization-stripped');
  expect(run.code).toBe(1);
  expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['authorization-header-stripped']);
  expect(new Set(Object.values(partiesOfNonPassing(run.report)))).toEqual(new Set(['environment']));
  expect(run.stdout).toContain('the valid token was refused exactly like no token at all');
  for (const advice of ['mod_rewrite', 'AllowOverride All', 'REDIRECT_HTTP_AUTHORIZATION', 'RequestHeader unset Authorization'])
    expect(run.stdout).toContain(advice);
  expect(run.report?.summary).toMatch(/the token is right, so the Authorization header is most likely stripped/);
  expect(run.report?.summary).not.toMatch(/or the token is wrong/);
});

test('a wrong envelope is blamed on the target, with no hosting diagnosis', async () => {
  const run = await runOf('status-ok');
  expect(partiesOfNonPassing(run.report)).toEqual({ 'ENV-STATUS-SUCCESS': 'target' });
  expect(run.report?.diagnoses).toEqual([]);
});

test('API paths answering an HTML page are blamed on the environment in front of the application: no verdict', async () => {
  const run = await runOf('html-page-200');
  expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['api-path-serves-html']);
  expect(run.stdout).toMatch(/requests are not reaching the API application/);
  expect(run.code).toBe(2);
  // Nothing is laid at the API's door: what could not be judged is the environment's.
  expect(new Set(Object.values(partiesOfNonPassing(run.report)))).toEqual(new Set(['environment']));
});

test('a refused token that the application did see is not blamed on the web server', async () => {
  const run = await runOf('password-checked');
  expect(run.report?.diagnoses).toEqual([]);
  expect(partiesOfNonPassing(run.report)).toEqual({ 'AUTH-PASSWORD-IGNORED': 'target' });
});
