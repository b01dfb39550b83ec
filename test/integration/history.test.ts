import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { fileResources } from '../helpers/file-resources.js';
import { BROKEN_NIGHT_CAUSE, nightlyRuns } from '../helpers/nightly-runs.js';
import type { Report, RunVerdict } from '../../src/report/model/types.js';
import { toneClass } from '../../src/report/views/stylesheet.js';
import { RUN_VERDICT_WORDS } from '../../src/report/views/vocabulary.js';

let history = '';
let stagingUrl = '';
let reports: Report[] = [];
const resources = fileResources();

beforeAll(async () => {
  let work: string;
  ({ work, stagingUrl, reports } = await nightlyRuns(resources));
  history = join(work, 'history-out');
  const result = await resources.inProcess.exec(['history', join(work, 'runs'), '--out', history]);
  expect(result.code, result.stderr).toBe(0);
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

      const staging = page.locator('section', { has: page.getByRole('heading', { name: `${stagingUrl}/`, exact: true }) });
      expect(await staging.count()).toBe(1);
      // Three runs: three bars' worth of verdict dots, green, red, green.
      const dots = await staging.locator('svg circle').evaluateAll((circles) => circles.map((circle) => circle.getAttribute('class')));
      const dot = (verdict: RunVerdict): string => `dot ${toneClass(RUN_VERDICT_WORDS[verdict].tone)}`;
      expect(dots).toEqual([dot('conformant'), dot('not-conformant'), dot('conformant')]);
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
      const staging = page.locator('section', { has: page.getByRole('heading', { name: `${stagingUrl}/`, exact: true }) });
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
