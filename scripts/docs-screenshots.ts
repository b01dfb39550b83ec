/**
 * Regenerates the screenshots of the README and the docs (docs/report-html.png, the likely cause at 1280 and 390 px
 * wide as docs/report-request-path.png and docs/report-request-path-phone.png, docs/allure-report.png, docs/matrix.png,
 * docs/history.png) from runs against the reference server with the Authorization header stripped, the failure ops
 * meet most. Needs /usr/bin/chromium.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { packageRoot } from '../src/paths.js';
import { processIo } from '../src/cli/io.js';
import { historyCommand } from '../src/cli/commands/history.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { runMatrix } from '../src/pipeline/matrix.js';
import { runConformance } from '../src/pipeline/run.js';
import { launchChromium } from '../test/helpers/chromium.js';
import { freePort } from '../test/helpers/free-port.js';

const TOKEN = 'docs-screenshot-token';
const docs = join(packageRoot, 'docs');

const workDir = await mkdtemp(join(tmpdir(), 'conformance-docs-'));
const server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
const browser = await launchChromium();
try {
  const out = join(workDir, 'out');
  await runConformance(loadConfig(['--base-url', server.url, '--token', TOKEN, '--out', out], {}, join(workDir, '.env')));
  const allureReport = join(workDir, 'allure-report');
  await promisify(execFile)(
    join(packageRoot, 'node_modules', '.bin', 'allure'),
    ['generate', join(out, 'allure-results'), '--config', 'allurerc.json', '--output', allureReport],
    { cwd: packageRoot, env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' } },
  );

  const page = await browser.newPage({ viewport: { width: 960, height: 1180 } });
  await page.goto(pathToFileURL(join(out, 'report.html')).href);
  await page.locator('#failure-AUTH-TOKEN-ACCEPTED > summary').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(docs, 'report-html.png') });
  // The likely cause with the path of the request, where it most likely stopped, and the configuration lines to copy:
  // on a laptop's screen and on a phone's.
  for (const [width, name] of [
    [1280, 'report-request-path.png'],
    [390, 'report-request-path-phone.png'],
  ] as const) {
    await page.setViewportSize({ width, height: 1180 });
    await page
      .locator('.diagnosis')
      .first()
      .screenshot({ path: join(docs, name) });
  }

  await page.setViewportSize({ width: 1280, height: 760 });
  await page.goto(`${pathToFileURL(join(allureReport, 'index.html')).href}#behaviors`);
  for (const label of ['selfservice', 'SELFSERVICE-ACCEPTED']) await page.getByText(label, { exact: true }).first().click();
  await page.getByText('SELFSERVICE-ACCEPTED (MUST): the reference call', { exact: false }).first().click();
  await page
    .getByText(/^1: GET \/api\/selfservice\/type/)
    .first()
    .click();
  await page.getByText('Basic realm', { exact: false }).first().waitFor();
  await page.screenshot({ path: join(docs, 'allure-report.png') });

  // A matrix of two targets: production, and staging behind the web server that strips the Authorization header.
  const production = await startReferenceServer({ token: TOKEN });
  const matrixOut = join(workDir, 'matrix');
  try {
    const targets = join(workDir, 'targets.json');
    const entries = [
      { name: 'production', baseUrl: production.url, tokenEnv: 'DOCS_TOKEN' },
      { name: 'staging', baseUrl: server.url, tokenEnv: 'DOCS_TOKEN' },
    ];
    await writeFile(targets, JSON.stringify(entries));
    const env = { DOCS_TOKEN: TOKEN };
    const config = loadConfig(['--targets', targets, '--out', matrixOut], env, join(workDir, '.env'));
    await runMatrix(config, loadTargets(config, env, join(workDir, '.env')), undefined);
  } finally {
    await production.close();
  }
  await page.setViewportSize({ width: 1480, height: 860 });
  await page.goto(pathToFileURL(join(matrixOut, 'matrix.html')).href);
  // The page opens on the targets that need attention; the picture shows both.
  await page.locator('#show-all').check();
  // A click beside the page's content takes the focus ring off the choice.
  await page.mouse.click(1, 1);
  await page.screenshot({ path: join(docs, 'matrix.png') });

  // Five nights of one staging server on one port: good, a broken colour, the header stripped, good twice.
  const runs = join(workDir, 'runs');
  // One port for every night, so that the history sees one target.
  const port = await freePort();
  for (const [night, variants] of [[], ['colour-missing'], ['authorization-stripped'], [], []].entries()) {
    const staging = await startReferenceServer({ token: TOKEN, variants, port });
    try {
      const config = ['--base-url', staging.url, '--token', TOKEN, '--out', join(runs, `night-${night + 1}`)];
      await runConformance(loadConfig(config, {}, join(workDir, '.env')));
    } finally {
      await staging.close();
    }
  }
  const historyOut = join(workDir, 'history');
  await historyCommand([runs, '--out', historyOut], processIo());
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(pathToFileURL(join(historyOut, 'history.html')).href);
  await page.screenshot({ path: join(docs, 'history.png'), fullPage: true });
  console.log(
    `Wrote report-html.png, report-request-path.png, report-request-path-phone.png, allure-report.png, matrix.png and history.png in ${docs}`,
  );
} finally {
  await Promise.all([browser.close(), server.close()]);
  await rm(workDir, { recursive: true, force: true });
}
