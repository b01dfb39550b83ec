import { describe, expect, test } from 'vitest';
import { tokenFormsIn } from '../helpers/token-forms.js';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { freePort } from '../helpers/free-port.js';
import { fileResources } from '../helpers/file-resources.js';
import { forward, serveHttp } from '../helpers/loopback-server.js';
import { lastLine, type CliRun } from '../helpers/run-cli.js';
import { diagnosisLines } from '../../src/report/views/diagnosis-text.js';

const TOKEN = 'doctor-token-9b41e2c7';
const { inProcess, cleanUpAfterAll } = fileResources();

async function doctor(args: string[]): Promise<CliRun> {
  const run = await inProcess.run(['doctor', ...args]);
  cleanUpAfterAll(run.cleanup);
  expect(tokenFormsIn(run.stdout + run.stderr, TOKEN)).toEqual([]);
  return run;
}

async function doctorOf(variants: string[]): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants });
  cleanUpAfterAll(server.close);
  return doctor(['--base-url', server.url, '--token', TOKEN]);
}

describe('ticketing-conformance doctor', () => {
  test.concurrent('a healthy deployment: every probe shown, nothing wrong, exit 0', async () => {
    const run = await doctorOf([]);
    expect(run.stdout).toContain('GET /api/ticket/status/1');
    expect(run.stdout).toContain('GET /index.php/api/ticket/status/1');
    expect(run.stdout).toContain('Verdict: no problem found in the hosting stack');
    expect(run.stdout).not.toContain('Diagnosis');
    expect(lastLine(run)).toBe('3 passed, 0 failed, 0 skipped');
    expect(run.code).toBe(0);
  });

  test.concurrent(
    'the Authorization header lost on /api/... and the token served through /index.php/api/...: diagnosed, exit 1',
    async () => {
      const run = await doctorOf(['authorization-stripped']);
      expect(run.stdout).toContain(
        'Diagnosis (environment, medium confidence): the valid token was refused exactly like no token at all on /api/ticket/status/1, while GET /index.php/api/ticket/status/1 was served with the same token: the token is right',
      );
      expect(lastLine(run)).toBe('2 passed, 1 failed, 0 skipped');
      expect(run.code).toBe(1);
    },
  );

  test.concurrent('a base URL with a path: every request goes under it, through the front controller too', async () => {
    const server = await startReferenceServer({ token: TOKEN, pathPrefix: '/helpdesk' });
    cleanUpAfterAll(server.close);
    const front = await serveHttp((request, response) => forward(request, response, new URL(server.url)));
    cleanUpAfterAll(front.close);
    const run = await doctor(['--base-url', `${front.url}/helpdesk`, '--token', TOKEN]);
    const seen = front.requests.map(({ url, authorization }) => `${url} ${authorization === undefined ? 'without' : 'with'} Authorization`);
    // The token, a wrong one, a malformed header and the token in three other places; no header; the listing; a status
    // that does not exist; the front controller's pair. The configured status is the first one: asked once.
    expect(seen.sort()).toEqual([
      '/helpdesk/api/selfservice/type with Authorization',
      '/helpdesk/api/selfservice/type without Authorization',
      ...Array<string>(6).fill('/helpdesk/api/ticket/status/1 with Authorization'),
      '/helpdesk/api/ticket/status/1 without Authorization',
      '/helpdesk/api/ticket/status/2147483646 with Authorization',
      '/helpdesk/index.php/api/ticket/status/1 with Authorization',
      '/helpdesk/index.php/api/ticket/status/1 without Authorization',
    ]);
    expect(run.stdout).toContain('GET /helpdesk/api/ticket/status/1 ');
    expect(run.stdout).toContain('GET /helpdesk/index.php/api/ticket/status/1 ');
    expect(lastLine(run)).toBe('3 passed, 0 failed, 0 skipped');
    expect(run.code).toBe(0);
  });

  test.concurrent('a stripped Authorization header: the doctor prints the very diagnosis a run gives for the same server', async () => {
    const server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
    cleanUpAfterAll(server.close);
    const [main, run] = await Promise.all([
      inProcess.run(['--base-url', server.url, '--token', TOKEN]),
      doctor(['--base-url', server.url, '--token', TOKEN]),
    ]);
    cleanUpAfterAll(main.cleanup);
    const diagnoses = main.report?.diagnoses ?? [];
    expect(diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['authorization-header-stripped']);
    for (const diagnosis of diagnoses) expect(run.stdout).toContain(diagnosisLines(diagnosis).join('\n'));
    expect(run.code).toBe(1);
  });

  test.concurrent('requests served without credentials: authentication not enforced, exit 1', async () => {
    const run = await doctorOf(['missing-header-accepted']);
    expect(run.stdout).toContain('Diagnosis (target, medium confidence): the API answered without valid credentials');
    expect(run.code).toBe(1);
  });

  test.concurrent('an HTML page on the API paths: exit 1', async () => {
    const run = await doctorOf(['html-page-200']);
    expect(run.stdout).toContain('the API paths answer an HTML page');
    expect(run.code).toBe(1);
  });

  test.concurrent('a closed port: no diagnosis, the cause told once, exit 2', async () => {
    const run = await doctor(['--base-url', `http://127.0.0.1:${await freePort()}`, '--token', TOKEN]);
    expect(run.stdout.match(/connection refused/g)).toHaveLength(1);
    expect(run.stdout).toContain('  none of the 12 was answered (the cause below)');
    expect(run.stdout.trim().split('\n').length).toBeLessThanOrEqual(15);
    expect(run.stdout).toContain('HARNESS_UNREACHABLE');
    expect(run.stdout).toContain('Verdict: no diagnosis: the target could not be reached');
    expect(lastLine(run)).toBe('0 passed, 0 failed, 3 skipped');
    expect(run.code).toBe(2);
  });

  test.concurrent('no base URL: one line naming the fix, exit 2', async () => {
    const run = await doctor(['--token', TOKEN]);
    expect(run.stderr.trim()).toMatch(/^CONFIG_MISSING_BASE_URL: the doctor needs the address of a deployment\. Pass --base-url URL/);
    expect(run.code).toBe(2);
  });
});
