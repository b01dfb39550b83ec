import { describe, expect, test } from 'vitest';
import { DEBUG_ECHOES, debugEchoTarget, ISSUED, type DebugEcho } from './helpers/debug-echo-targets.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import type { CliRun } from './helpers/run-cli.js';
import { tokenFormsIn } from './helpers/token-forms.js';

// A target in debug mode writes back every request it gets, credentials and all, and hands out credentials of its
// own: the run still reaches its verdict, and nothing of either kind is kept.

const TOKEN = 'Sup3r/Secret+Token-93f1c2';
/** A password someone gave with --password: theirs, so a secret too. */
const PASSWORD = 'Hunter2-Pa55word-7e1d';
const { inProcess, cleanUpAfterAll } = fileResources({ reports: REPORT_KINDS });

/** Every file a run writes, with allure-results/ standing for the files in it. */
const WRITTEN = ['badge.svg', 'ctrf.json', 'junit.xml', 'recording.har', 'recording.json', 'report.html', 'report.json', 'report.md'];

async function runAgainst(echo: DebugEcho, extraArgs: string[]): Promise<CliRun> {
  const target = await debugEchoTarget(TOKEN, echo);
  cleanUpAfterAll(target.close);
  const run = await inProcess.run(['--base-url', target.url, '--token', TOKEN, ...extraArgs]);
  cleanUpAfterAll(run.cleanup);
  return run;
}

async function written(run: CliRun): Promise<{ names: string[]; text: string; recording: string }> {
  const files = await run.files();
  const relative = files.map((file) => file.path.slice(run.outDir.length + 1));
  return {
    names: [...new Set(relative.map((name) => name.replace(/^allure-results\/.*/, 'allure-results/')))].filter(
      (name) => !name.startsWith('.'),
    ),
    text: [run.stdout, run.stderr, ...files.map((file) => file.content.toString('utf8'))].join('\n'),
    recording: files.find((file) => file.path.endsWith('/recording.json'))?.content.toString('utf8') ?? '',
  };
}

describe('a target that echoes the requests it gets', () => {
  test.concurrent.each(Object.keys(DEBUG_ECHOES) as DebugEcho[])('%s: conformant, every file written, no credential kept', async (echo) => {
    const run = await runAgainst(echo, ['--password', PASSWORD]);
    expect({ code: run.code, stderr: run.stderr, errors: run.report?.errors }).toEqual({ code: 0, stderr: '', errors: [] });
    expect(run.report?.verdict).toBe('conformant');
    const { names, text, recording } = await written(run);
    expect(names.sort()).toEqual([...WRITTEN, 'allure-results/'].sort());
    expect({ token: tokenFormsIn(text, TOKEN), password: tokenFormsIn(text, PASSWORD) }).toEqual({ token: [], password: [] });
    expect(Object.values(ISSUED).filter((value) => text.includes(value))).toEqual([]);
    // The echo is kept in each body's text, redacted where it stood.
    expect(recording).toMatch(/"bodyText": "[^\n]*\\"debug\\":[^\n]*<redacted>/);
  });

  test.concurrent('with the default password too: the parsed body recording.json keeps is redacted by key, as its text is', async () => {
    const run = await runAgainst('the request headers as a JSON object', []);
    expect({ code: run.code, stderr: run.stderr, errors: run.report?.errors }).toEqual({ code: 0, stderr: '', errors: [] });
    const { recording } = await written(run);
    expect(recording).toContain('"authorization": "Basic <redacted>"');
    expect(tokenFormsIn(recording, TOKEN)).toEqual([]);
  });
});

describe('credentials the target hands out', () => {
  test.concurrent('Set-Cookie, X-Api-Key, X-Auth-Token and X-CSRF-Token: names kept, values redacted', async () => {
    const run = await runAgainst('the request headers as a JSON object', []);
    expect(run.code).toBe(0);
    const { text, recording } = await written(run);
    expect(Object.values(ISSUED).filter((value) => text.includes(value))).toEqual([]);
    expect(recording).toContain('"set-cookie": "session=<redacted>; Path=/; HttpOnly; SameSite=Lax, XSRF-TOKEN=<redacted>; Path=/"');
    for (const header of ['x-api-key', 'x-auth-token', 'x-csrf-token']) expect(recording).toContain(`"${header}": "<redacted>"`);
  });
});

describe('the password given with --password', () => {
  test.concurrent('is nowhere in what a run writes: <PASSWORD> in every repro, redacted in every echo', async () => {
    const run = await runAgainst('the request headers as a JSON object', ['--password', PASSWORD]);
    const { text, recording } = await written(run);
    expect(text.split(PASSWORD).length - 1).toBe(0);
    expect(recording).toContain("curl -sS -u '<API_TOKEN>:<PASSWORD>'");
    expect(recording).toContain("curl -sS -u 'conformance-invalid-token-0000:<PASSWORD>'");
  });
});
