import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import type { Diagnosis } from '../src/diagnosis/types.js';
import type { Report } from '../src/report/model/types.js';
import { chromiumMissing, launchChromium } from './helpers/chromium.js';
import { fileResources } from './helpers/file-resources.js';

const TOKEN = 'history-token-5b02d4';
const BROKEN_NIGHT_CAUSE: Diagnosis = {
  id: 'server-error',
  party: 'target',
  confidence: 'medium',
  summary: `the application answered without the colour of the status${': a field the document requires is missing'.repeat(8)}`,
  evidence: 'GET /api/ticket/status/1 answered HTTP 200 without data.colour',
  advice: [],
};

let work = '';
let good: RunningReferenceServer;
let broken: RunningReferenceServer;
const reports: Report[] = [];
let history = '';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();

/** Nightly runs: staging good, broken (STATUS-COLOUR), good again; production good twice. */
beforeAll(async () => {
  work = await tempFolder('conformance-history-');
  good = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(good.close);
  broken = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  cleanUpAfterAll(broken.close);
  const runsDir = join(work, 'runs');
  // The broken night is the same address as staging: the target is named by its base URL.
  const staging = good.url;
  const plan: [string, RunningReferenceServer][] = [
    ['night-1', good],
    ['night-2', broken],
    ['night-3', good],
  ];
  const nights = async (): Promise<void> => {
    // One night after the other: history orders a target's runs by their start time.
    for (const [night, server] of plan) {
      const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
      if (!run.report) throw new Error(`${night}: no report`);
      // Recorded as if every night tested the one staging address.
      const report = { ...run.report, target: { ...run.report.target, baseUrl: `${staging}/` } };
      delete report.integrity;
      // The broken night names a cause longer than a line of the page, as a run's diagnosis can be.
      if (server === broken) report.diagnoses = [BROKEN_NIGHT_CAUSE];
      await mkdir(join(runsDir, night, 'staging'), { recursive: true });
      await writeFile(join(runsDir, night, 'staging', 'report.json'), JSON.stringify(report));
      reports.push(report);
      await run.cleanup();
    }
  };
  const production = async (): Promise<void> => {
    const reference = await inProcess.run([]);
    await mkdir(join(runsDir, 'reference'), { recursive: true });
    await cp(join(reference.outDir, 'report.json'), join(runsDir, 'reference', 'report.json'));
    await cp(join(reference.outDir, 'badge.svg'), join(work, 'reference-badge.svg'));
    await reference.cleanup();
  };
  await Promise.all([nights(), production()]);
  await mkdir(join(runsDir, 'broken-file'));
  await writeFile(join(runsDir, 'broken-file', 'report.json'), '{ "not": "a report"');
  history = join(work, 'history-out');
});

test('history DIR --out OUT writes one history.html, leaves out an unreadable file with a line saying why', async () => {
  const result = await inProcess.exec(['history', join(work, 'runs'), '--out', history]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^History of 4 runs of 2 target\(s\): .*history\.html$/m);
  expect(result.stderr).toMatch(/^Left out broken-file\/report\.json: /m);
  const page = await readFile(join(history, 'history.html'), 'utf8');
  // Self-contained: no script, nothing fetched.
  expect(page).not.toMatch(/<script|<link|src="http|href="http/);
  expect(page).toContain("default-src 'none'");
});

test('history with no report under the folder, or no folder, exits 2 with one line', async () => {
  const empty = await mkdtemp(join(work, 'empty-'));
  const none = await inProcess.exec(['history', empty, '--out', join(work, 'none')]);
  expect(none.code).toBe(2);
  expect(none.stderr.trim()).toMatch(/^CONFIG_INVALID: no readable report\.json under .*\. Point history at/);
  const missing = await inProcess.exec(['history', join(work, 'no-such-folder'), '--out', join(work, 'none')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr.trim().split('\n')).toHaveLength(1);
});

test('every run writes a shields-style badge.svg: "conformance | N/N MUST" in the verdict colour', async () => {
  const badge = await readFile(join(work, 'reference-badge.svg'), 'utf8');
  const must = reports[0]?.requirements.filter((result) => result.level === 'MUST').length ?? 0;
  expect(badge).toContain(`aria-label="conformance: ${must}/${must} MUST (conformant)"`);
  expect(badge).toContain(`>${must}/${must} MUST</text>`);
  expect(badge).toContain('fill="#2e7d32"');
  expect(badge.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
});

describe.skipIf(chromiumMissing !== undefined)(
  `history.html in headless Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    test('per target: a timeline of verdicts, a requirement by run grid, and when a requirement started and stopped failing', async () => {
      if (!browser) throw new Error('Chromium did not start');
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const requests: string[] = [];
      const console: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => console.push(message.text()));
      const url = pathToFileURL(join(history, 'history.html')).href;
      await page.goto(url);
      expect(requests).toEqual([url]);
      expect(console).toEqual([]);

      const staging = page.locator('section', { has: page.getByRole('heading', { name: `${good.url}/`, exact: true }) });
      expect(await staging.count()).toBe(1);
      // Three runs: three bars' worth of verdict dots, green, red, green.
      const dots = await staging.locator('svg circle').evaluateAll((circles) => circles.map((circle) => circle.getAttribute('class')));
      expect(dots).toEqual(['dot-conformant', 'dot-not-conformant', 'dot-conformant']);
      expect(await staging.getByRole('img').first().getAttribute('aria-labelledby')).toMatch(/^timeline-/);

      const rows = staging.locator('.grid tbody tr');
      const requirementCount = reports[0]?.requirements.length ?? 0;
      expect(await rows.count()).toBe(requirementCount + 1);
      const colour = staging.locator('.grid tbody tr', { has: page.getByRole('rowheader', { name: 'STATUS-COLOUR', exact: true }) });
      expect(await colour.locator('td').allInnerTexts()).toEqual(['PASS', 'FAIL', 'PASS']);

      const changes = await staging.locator('.changes li').allInnerTexts();
      expect(changes).toEqual([
        expect.stringMatching(/^STATUS-COLOUR started failing in run 2 \(.*\): PASS → FAIL$/),
        expect.stringMatching(/^STATUS-COLOUR stopped failing in run 3 \(.*\): FAIL → PASS$/),
      ]);
      expect(await page.locator('section').count()).toBe(2);
      await page.screenshot({ path: join(history, 'history.png'), fullPage: true });
      await page.close();
    });

    test('one line per run, the newest first: MUST passed, failed and skipped apart, and the cause the run named', async () => {
      if (!browser) throw new Error('Chromium did not start');
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(pathToFileURL(join(history, 'history.html')).href);
      const staging = page.locator('section', { has: page.getByRole('heading', { name: `${good.url}/`, exact: true }) });
      const rows = staging.locator('.runs tbody tr');
      expect(await rows.count()).toBe(reports.length);
      const must = (report: Report | undefined, verdicts: string[]): string =>
        String(report?.requirements.filter((result) => result.level === 'MUST' && verdicts.includes(result.verdict)).length);
      for (const [at, report] of reports.entries()) {
        const cells = await rows
          .nth(reports.length - 1 - at)
          .locator('td')
          .allInnerTexts();
        expect(cells[0]).toBe(String(at + 1));
        expect(cells.slice(3, 6)).toEqual([must(report, ['pass']), must(report, ['fail', 'flaky']), must(report, ['skip', 'error'])]);
        expect(cells[6]).toBe(report?.diagnoses[0]?.summary ?? '-');
      }
      // The broken night failed one MUST and skipped none: the counts say so apart, not as "N-1/N" in red.
      expect(await rows.nth(1).locator('td').nth(4).innerText()).toBe('1');
      expect(await rows.nth(1).locator('td').nth(5).innerText()).toBe('0');
      const cause = rows.nth(1).locator('td.cause > span');
      expect(await cause.getAttribute('title')).toBe(BROKEN_NIGHT_CAUSE.summary);
      const heights = await rows
        .nth(1)
        .locator('td')
        .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().height));
      expect(new Set(heights).size).toBe(1);
      const line = await cause.evaluate((span) => [span.getBoundingClientRect().height, parseFloat(getComputedStyle(span).lineHeight)]);
      expect(line[0]).toBeLessThan((line[1] ?? 0) * 1.5);
      expect(await staging.locator('.latest').innerText()).toMatch(/; MUST \d+ passed, 0 failed, 0 skipped\. 3 runs\.$/);
      // The page's width is used: the tables fill the section, which fills the window less its padding.
      const widths = await page.evaluate(() => ({
        main: document.querySelector('main')?.getBoundingClientRect().width ?? 0,
        tables: [...document.querySelectorAll('table')].map((table) => table.getBoundingClientRect().width),
      }));
      expect(widths.main).toBeGreaterThan(1200);
      for (const width of widths.tables) expect(width).toBeGreaterThan(widths.main - 60);
      await page.close();
    });
  },
);

test('a run that reached no verdict has a badge that says so, in its own colour', async () => {
  const { renderBadge } = await import('../src/report/views/badge.js');
  const report = reports[1];
  if (!report) throw new Error('no report');
  const must = report.requirements.filter((result) => result.level === 'MUST');
  const passed = must.filter((result) => result.verdict === 'pass').length;
  expect(passed).toBeLessThan(must.length);
  const failing = renderBadge(report);
  expect(failing).toContain(`>${passed}/${must.length} MUST</text>`);
  expect(failing).toContain('fill="#c62828"');
  const inconclusive = renderBadge({ ...report, verdict: 'inconclusive' });
  expect(inconclusive).toContain('>no verdict</text>');
  expect(inconclusive).toContain('fill="#6a1b9a"');
});
