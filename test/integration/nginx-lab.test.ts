import { relative } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { configOf } from '../../src/config/load.js';
import type { StackObservations } from '../../src/diagnosis/answers.js';
import { nginxDocUrl } from '../../src/diagnosis/nginx-docs.js';
import { examine } from '../../src/pipeline/doctor.js';
import { createSecretScanner } from '../../src/secrets/scanner.js';
import { fileResources } from '../helpers/file-resources.js';
import { failedRequirements } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';
import { APACHE_ADVICE, nginxLabFile, recordedForm } from '../doctor/recorded.js';
import type { NginxSite } from '../lab/configs.js';
import { Lab, type RunningSite } from '../lab/lab.js';
import { expectBothSay, expectConformant, expectDiagnosed, siteRuns, type Runs } from '../lab/site-runs.js';
import { findLabTools } from '../lab/tools.js';

const TOKEN = 'lab-token-7d2f90b14e';
const { tools, missing } = findLabTools();
const absent = [...missing, ...(tools?.nginx ? [] : ['nginx'])];
const skipReason = `skipped: ${absent.join(', ')} not installed (.ci/setup.d/20-apache-php.sh installs them)`;
if (absent.length > 0) console.warn(`nginx/PHP-FPM lab ${skipReason}`);

let lab: Lab | undefined;
const resources = fileResources();
const against = siteRuns(() => lab, TOKEN, resources);

/** What the doctor's probes got, in the form the rules' self-tests read (test/doctor/recorded.ts), and the error log. */
interface Seen {
  answers: StackObservations;
  errorLog: string;
}

async function seen(running: RunningSite): Promise<Seen> {
  // As patient as the file's in-process runs, which wait their turn beside the other sites on a loaded machine.
  const patient = { CONFORMANCE_TIMEOUT_MS: String(SAFETY_NET_MS), CONFORMANCE_DEADLINE_MS: String(SAFETY_NET_MS) };
  const config = configOf({ baseUrl: running.url, token: TOKEN }, patient, '/nonexistent/.env');
  const examination = await examine({ ...config, baseUrl: running.url, token: TOKEN }, createSecretScanner([TOKEN], [config.password]));
  const answers = Object.fromEntries(
    examination.requests.flatMap(({ name, answer }) => (answer ? [[name, recordedForm(answer, running.url)]] : [])),
  ) as StackObservations;
  return { answers, errorLog: await running.errorLog() };
}

/**
 * Serves the nginx site, runs the suite and the doctor against it, and checks that its answers are still the ones the
 * rules' self-tests read (update them with vitest -u after a change of the lab or of nginx). No Apache advice shows.
 */
async function serve(site: NginxSite, check: typeof expect, realCli: 'doctor' | 'none' = 'none'): Promise<Runs & Seen> {
  const runs = await against(
    { name: site, server: { kind: 'nginx', site }, htaccess: 'shipped', authorizationSources: ['PHP_AUTH_USER', 'HTTP_AUTHORIZATION'] },
    realCli,
    seen,
  );
  if (!runs.inspected) throw new Error(`the ${site} site was not inspected`);
  const { answers, errorLog } = runs.inspected;
  await check(`${JSON.stringify(answers, null, 2)}\n`).toMatchFileSnapshot(relative(import.meta.dirname, nginxLabFile(site)));
  expect(runs.main.stdout).not.toMatch(APACHE_ADVICE);
  expect(runs.doctor.stdout).not.toMatch(APACHE_ADVICE);
  return { ...runs, answers, errorLog };
}

// Each site is an nginx of its own in front of the one PHP-FPM pool: they are served and judged side by side.
describe.skipIf(absent.length > 0)(
  absent.length === 0 ? 'nginx and PHP-FPM lab: the CLI against real web servers' : `nginx/PHP-FPM lab ${skipReason}`,
  { concurrent: true },
  () => {
    beforeAll(async () => {
      if (tools) lab = await Lab.start(tools, TOKEN);
      resources.cleanUpAfterAll(async () => lab?.close());
    });

    test("Debian's PHP snippet and try_files to the front controller: conformant, no fastcgi_param needed for the header", async ({
      expect: check,
    }) => {
      expectConformant(await serve('front-controller', check));
    });

    test('fastcgi_param HTTP_AUTHORIZATION "": the header never reaches PHP, the advice names fastcgi_param', async ({ expect: check }) => {
      const runs = await serve('authorization-param-emptied', check);
      // Stripped on every path, /index.php/api/... included: nothing tells it from a wrong token.
      expectDiagnosed(runs, 'authorization-header-stripped', { main: 'medium', doctor: 'medium' }, 2);
      expect(failedRequirements(runs.main.report)).toEqual([]);
      expectBothSay(
        runs,
        '"fastcgi_param HTTP_AUTHORIZATION" line that sets it to ""',
        nginxDocUrl('fastcgi_param'),
        'fastcgi_param HTTP_AUTHORIZATION $http_authorization;',
      );
    });

    test('a proxy_pass front with proxy_set_header Authorization "": the header is dropped, the advice names proxy_set_header', async ({
      expect: check,
    }) => {
      const runs = await serve('proxy-drops-authorization', check);
      expectDiagnosed(runs, 'authorization-header-stripped', { main: 'medium', doctor: 'medium' }, 2);
      expect(failedRequirements(runs.main.report)).toEqual([]);
      expectBothSay(
        runs,
        '"proxy_set_header Authorization" set to ""',
        nginxDocUrl('proxy_set_header'),
        'proxy_set_header Authorization $http_authorization;',
      );
    });

    test('root one folder above index.php: PHP-FPM\'s "File not found.", the advice names root and SCRIPT_FILENAME', async ({
      expect: check,
    }) => {
      const runs = await serve('root-above-application', check);
      expect(runs.answers.valid).toMatchObject({ status: 404, body: 'File not found.\n' });
      expect(runs.errorLog).toContain('FastCGI sent in stderr: "Primary script unknown"');
      expectDiagnosed(runs, 'php-fpm-script-not-found', { main: 'high', doctor: 'high' }, 2);
      expectBothSay(runs, 'Set root to the folder index.php is in', nginxDocUrl('root'), nginxDocUrl('fastcgi_param'));
    });

    test("try_files $uri $uri/ =404 while /index.php/api/ is served: nginx's 404 page on /api/, not conformant, the advice names try_files", async ({
      expect: check,
    }) => {
      const runs = await serve('no-front-controller', check);
      expect(runs.answers.valid?.body).toContain('<center>nginx</center>');
      expectDiagnosed(runs, 'front-controller-not-routed', { main: 'high', doctor: 'high' }, 1);
      for (const run of [runs.main, runs.doctor]) {
        expect(run.stdout).toMatch(/while GET \/index\.php\/api\/ticket\/status\/1 reached the application: HTTP 200/);
      }
      expectBothSay(runs, 'try_files $uri $uri/ /index.php?$query_string;', nginxDocUrl('try_files'));
    });

    test("Debian's default site with its PHP location turned on: nginx's 404 on /api/ and /index.php/api/, try_files and the base URL both named", async ({
      expect: check,
    }) => {
      const runs = await serve('debian-default', check);
      expect(runs.answers.frontController?.body).toContain('<center>nginx</center>');
      expectDiagnosed(runs, 'front-controller-not-routed', { main: 'low', doctor: 'low' }, 2);
      expectBothSay(
        runs,
        "as Debian's default site does",
        'try_files $uri $uri/ /index.php?$query_string;',
        '--base-url https://help.example.com',
      );
    });

    test("fastcgi_pass to the socket of Debian's default site, which is not there: nginx's 502, the advice names fastcgi_pass", async ({
      expect: check,
    }) => {
      const runs = await serve('fpm-socket-missing', check);
      expect(runs.answers.valid).toMatchObject({ status: 502 });
      expect(runs.errorLog).toContain('connect() to unix:/run/php/php7.4-fpm.sock failed (2: No such file or directory)');
      expectDiagnosed(runs, 'web-server-error', { main: 'medium', doctor: 'medium' }, 2);
      expectBothSay(runs, "make the socket of nginx's fastcgi_pass the one in the pool's", nginxDocUrl('fastcgi_pass'));
    });

    test("auth_basic on location /: nginx's own 401 before the application, the advice names auth_basic", async ({ expect: check }) => {
      const runs = await serve('auth-basic', check, 'doctor');
      expect(runs.answers.valid).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Basic realm="Staff only"' } });
      expect(runs.errorLog).toContain('was not found in');
      expectDiagnosed(runs, 'web-server-password', { main: 'high', doctor: 'high' }, 2);
      expect(runs.doctor.stdout).toMatch(/while GET \/index\.php\/api\/ticket\/status\/1 reached the application: HTTP 200/);
      expectBothSay(
        runs,
        'WWW-Authenticate: Basic realm="Staff only"',
        '"auth_basic off;" in a location for /api/',
        nginxDocUrl('auth_basic'),
      );
    });

    test('auth_basic on location / with the location for /api/ the advice gives: conformant', async ({ expect: check }) => {
      expectConformant(await serve('auth-basic-api-exempt', check));
    });
  },
);
