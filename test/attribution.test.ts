import { expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { runCli } from './helpers/run-cli.js';

const TOKEN = 'attribution-token-77aa01';

async function runAgainst(variants: string[]) {
  const server = await startReferenceServer({ token: TOKEN, variants });
  try {
    return await runCli(['--base-url', server.url, '--token', TOKEN]);
  } finally {
    await server.close();
  }
}

const partiesOfNonPassing = (report: Awaited<ReturnType<typeof runCli>>['report']): Record<string, string | undefined> =>
  Object.fromEntries(
    (report?.requirements ?? [])
      .filter((result) => ['fail', 'warn', 'error'].includes(result.verdict))
      .map((result) => [result.id, result.party]),
  );

test('a stripped Authorization header is blamed on the web server or the token, with the Apache advice', async () => {
  const run = await runAgainst(['authorization-stripped']);
  try {
    expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['authorization-header-stripped']);
    expect(new Set(Object.values(partiesOfNonPassing(run.report)))).toEqual(new Set(['environment']));
    expect(run.stdout).toContain('the valid token was refused exactly like no token at all');
    for (const advice of ['mod_rewrite', 'AllowOverride All', 'PHP-FPM', 'SuPHP', 'CGI']) expect(run.stdout).toContain(advice);
    expect(run.report?.summary).toMatch(/strips the Authorization header .*or the token is wrong/);
  } finally {
    await run.cleanup();
  }
});

test('a wrong envelope is blamed on the target, with no hosting diagnosis', async () => {
  const run = await runAgainst(['status-ok']);
  try {
    expect(partiesOfNonPassing(run.report)).toEqual({ 'ENV-STATUS-SUCCESS': 'target' });
    expect(run.report?.diagnoses).toEqual([]);
  } finally {
    await run.cleanup();
  }
});

test('API paths answering an HTML page are blamed on the environment in front of the application: no verdict', async () => {
  const run = await runAgainst(['html-page-200']);
  try {
    expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['api-path-serves-html']);
    expect(run.stdout).toMatch(/requests are not reaching the API application/);
    expect(run.code).toBe(2);
    expect(partiesOfNonPassing(run.report)).toEqual({});
  } finally {
    await run.cleanup();
  }
});

test('a refused token that the application did see is not blamed on the web server', async () => {
  const run = await runAgainst(['password-checked']);
  try {
    expect(run.report?.diagnoses).toEqual([]);
    expect(partiesOfNonPassing(run.report)).toEqual({ 'AUTH-PASSWORD-IGNORED': 'target' });
  } finally {
    await run.cleanup();
  }
});
