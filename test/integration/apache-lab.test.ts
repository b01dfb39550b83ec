import { beforeAll, describe, expect, test } from 'vitest';
import { fileResources } from '../helpers/file-resources.js';
import { failedRequirements } from '../helpers/run-cli.js';
import { EVERY_SOURCE, Lab, type SiteSetup } from '../lab/lab.js';
import { expectBothSay, expectConformant, expectDiagnosed, siteRuns, type Runs } from '../lab/site-runs.js';
import { findLabTools } from '../lab/tools.js';

const TOKEN = 'lab-token-3c9e71d0a5';
const { tools, missing } = findLabTools();
const skipReason = `skipped: ${missing.join(', ')} not installed (.ci/setup.d/20-apache-php.sh installs them)`;
if (!tools) console.warn(`Apache/PHP-FPM lab ${skipReason}`);

const FPM = { php: 'fpm', rewriteModule: true, allowOverride: 'All' } as const;
/** An application that reads the header where PHP puts it, but not REDIRECT_HTTP_AUTHORIZATION. */
const PLAIN_SOURCES: SiteSetup['authorizationSources'] = ['PHP_AUTH_USER', 'HTTP_AUTHORIZATION'];

let lab: Lab | undefined;
const resources = fileResources();
/** The first site gets the real binary, end to end; the others run the same commands in this process. */
const against = siteRuns(() => lab, TOKEN, resources);

/**
 * /api/ gets the Apache 404 page, not the application's JSON, while /index.php/api/ reaches the application: the
 * .htaccess the hosting rule needs is not applied, and the run is not conformant.
 */
function expectRewriteNotApplied(runs: Runs): void {
  const answer = runs.main.report?.exchanges['valid /api/ticket/status/1?']?.response;
  expect(answer?.status).toBe(404);
  expect(answer?.headers['content-type']).toMatch(/text\/html/);
  expect(answer?.headers.server).toMatch(/^Apache\//);
  expectDiagnosed(runs, 'rewrite-not-applied', { main: 'high', doctor: 'high' }, 1);
  expect(failedRequirements(runs.main.report)).toContain('HOST-AUTHORIZATION-PASSED');
  for (const run of [runs.main, runs.doctor]) {
    expect(run.stdout).toMatch(/while GET \/index\.php\/api\/ticket\/status\/1 reached the application/);
  }
}

/** The token, a wrong token and no header answered alike, nothing served: a stripped header or a wrong token, not judged. */
function expectStrippedOrWrongToken(runs: Runs): void {
  expectDiagnosed(runs, 'authorization-header-stripped', { main: 'medium', doctor: 'medium' }, 2);
  expect(failedRequirements(runs.main.report)).toEqual([]);
  expectBothSay(runs, /or the token is wrong; nothing in this run tells the two apart/);
}

// Each site is a web server of its own: they are served and judged side by side.
describe.skipIf(!tools)(
  tools ? 'Apache and PHP-FPM lab: the CLI against real web servers' : `Apache/PHP-FPM lab ${skipReason}`,
  { concurrent: true },
  () => {
    beforeAll(async () => {
      if (tools) lab = await Lab.start(tools, TOKEN);
      resources.cleanUpAfterAll(async () => lab?.close());
    });

    test('1. mod_rewrite, AllowOverride All, PHP-FPM through proxy_fcgi: conformant', async () => {
      expectConformant(
        await against(
          { name: 'fpm', server: { kind: 'apache', setup: FPM }, htaccess: 'shipped', authorizationSources: EVERY_SOURCE },
          'both',
        ),
      );
    });

    test('2. PHP through the CGI handler: stripped on every path, /index.php/api/... too, not told from a wrong token; CGI named', async () => {
      const runs = await against({
        name: 'cgi',
        server: { kind: 'apache', setup: { ...FPM, php: 'cgi' } },
        htaccess: 'shipped',
        authorizationSources: PLAIN_SOURCES,
      });
      expectStrippedOrWrongToken(runs);
      expectBothSay(
        runs,
        'Replace CGI by PHP-FPM (proxy_fcgi) or SuPHP',
        'SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"',
      );
    });

    test('2b. the CGI handler with an application that also reads REDIRECT_HTTP_AUTHORIZATION: the .htaccess rule rescues the header', async () => {
      expectConformant(
        await against({
          name: 'cgi-redirect',
          server: { kind: 'apache', setup: { ...FPM, php: 'cgi' } },
          htaccess: 'shipped',
          authorizationSources: EVERY_SOURCE,
        }),
      );
    });

    test('3. mod_rewrite not loaded: /api/ paths get Apache 404, the diagnosis names mod_rewrite', async () => {
      const runs = await against({
        name: 'no-rewrite',
        server: { kind: 'apache', setup: { ...FPM, rewriteModule: false } },
        htaccess: 'shipped',
        authorizationSources: EVERY_SOURCE,
      });
      expectRewriteNotApplied(runs);
      expectBothSay(runs, 'Enable mod_rewrite', 'a2enmod rewrite');
    });

    test('4. AllowOverride None: the .htaccess is ignored, the diagnosis names AllowOverride', async () => {
      const runs = await against({
        name: 'allow-override-none',
        server: { kind: 'apache', setup: { ...FPM, allowOverride: 'None' } },
        htaccess: 'shipped',
        authorizationSources: EVERY_SOURCE,
      });
      expectRewriteNotApplied(runs);
      expectBothSay(runs, 'Set AllowOverride All', /<Directory \S+>\n\s+ {4}AllowOverride All\n\s+<\/Directory>/);
    });

    test('5. PHP-FPM without the .htaccess rule: stripped everywhere, not told from a wrong token, the rewrite rule given', async () => {
      const runs = await against({
        name: 'fpm-no-rule',
        server: { kind: 'apache', setup: FPM },
        htaccess: 'without-authorization-rule',
        authorizationSources: EVERY_SOURCE,
      });
      expectStrippedOrWrongToken(runs);
      expectBothSay(runs, 'RewriteCond %{HTTP:Authorization} .', 'RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]');
    });

    test('6. "RequestHeader unset Authorization early": stripped on every path, named as a rule that strips the header', async () => {
      const runs = await against({
        name: 'request-header-unset',
        server: { kind: 'apache', setup: { ...FPM, unsetAuthorization: true } },
        htaccess: 'shipped',
        authorizationSources: EVERY_SOURCE,
      });
      expectStrippedOrWrongToken(runs);
      expectBothSay(runs, '"RequestHeader unset Authorization" (mod_headers)');
    });

    test('mod_fcgid with the shipped .htaccess: the rule hands PHP the header, conformant', async () => {
      expectConformant(
        await against({
          name: 'fcgid',
          server: { kind: 'apache', setup: { ...FPM, php: 'fcgid' } },
          htaccess: 'shipped',
          authorizationSources: PLAIN_SOURCES,
        }),
      );
    });
  },
);
