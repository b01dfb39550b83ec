import { mkdtemp, writeFile } from 'node:fs/promises';
import { createSecretScanner } from '../../src/secrets/scanner.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildMatrix } from '../../src/report/matrix/build.js';
import { renderMatrixHtml } from '../../src/report/matrix/html.js';
import type { MatrixTarget } from '../../src/report/matrix/types.js';
import { catalog } from '../../src/requirements/catalog.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { removeFolder } from '../helpers/safety-net.js';

/** A fleet the size hosting teams audit: most targets conformant, a few failing, a few that could not be judged. */
const TARGETS = 1000;
const kindOf = (index: number): 'conformant' | 'not-conformant' | 'inconclusive' =>
  index % 97 === 5 ? 'inconclusive' : index % 31 === 3 ? 'not-conformant' : 'conformant';

function target(index: number): MatrixTarget {
  const verdict = kindOf(index);
  const exitCode = verdict === 'conformant' ? 0 : verdict === 'not-conformant' ? 1 : 2;
  const name = `host-${String(index + 1).padStart(4, '0')}`;
  return {
    name,
    position: index,
    baseUrl: `https://${name}.example`,
    verdict,
    exitCode,
    summary: verdict === 'conformant' ? 'Conformant.' : `Needs a look (${verdict}).`,
    totals: { pass: 26, fail: exitCode === 1 ? 1 : 0, warn: 0, info: 7, skip: 0, error: exitCode === 2 ? 1 : 0, flaky: 0 },
    outcomes: {
      passed: 26,
      failed: exitCode === 1 ? 1 : 0,
      warned: 0,
      waived: 0,
      skipped: 0,
      observed: 7,
      unjudged: exitCode === 2 ? 1 : 0,
    },
    strict: false,
    waived: [],
    requests: 17,
    durationMs: 40,
    reportDir: `targets/${name}`,
    verdicts: Object.fromEntries(
      catalog.map((requirement, at) => [
        requirement.id,
        at === 3 && exitCode === 1 ? 'fail' : exitCode === 2 && at === 0 ? 'error' : 'pass',
      ]),
    ),
  };
}

describe.skipIf(chromiumMissing !== undefined)(
  `matrix.html of ${TARGETS} targets in headless Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let browser: Browser | undefined;
    let dir = '';
    let url = '';
    const rows = Array.from({ length: TARGETS }, (_, index) => target(index));
    const needing = rows.filter((row) => row.exitCode !== 0);

    /** Writes the matrix page of these targets and returns its file URL. */
    async function page(name: string, targets: MatrixTarget[]): Promise<string> {
      const at = new Date().toISOString();
      const matrix = buildMatrix(
        {
          suite: { name: 'ticketing-conformance', version: '0.0.0' },
          startedAt: at,
          finishedAt: at,
          durationMs: 1,
          targetConcurrency: 16,
          targets,
          errors: [],
        },
        createSecretScanner([]),
      );
      await writeFile(join(dir, name), renderMatrixHtml(matrix, new Set()));
      return pathToFileURL(join(dir, name)).href;
    }

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'conformance-matrix-html-'));
      url = await page('matrix.html', rows);
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await removeFolder(dir);
    });

    async function open(javaScriptEnabled: boolean, address = url): Promise<{ page: Page; violations: string[]; requests: string[] }> {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ javaScriptEnabled, offline: true, viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      const violations: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(address);
      return { page, violations, requests };
    }

    const visibleRows = (page: Page): Promise<string[]> =>
      page
        .locator('tbody tr')
        .evaluateAll((found) =>
          found.filter((row) => row.getClientRects().length > 0).map((row) => (row as HTMLElement).dataset.name ?? ''),
        );

    test('the page opens on the targets that need attention, worst first, and the filter works without script', async () => {
      const { page, violations, requests } = await open(false);
      expect(requests).toEqual([url]);
      const inconclusive = needing.filter((row) => row.exitCode === 2).map((row) => row.name);
      const failing = needing.filter((row) => row.exitCode === 1).map((row) => row.name);
      expect(await page.locator('#show-attention').isChecked()).toBe(true);
      expect(await visibleRows(page)).toEqual([...inconclusive, ...failing]);

      await page.locator('#show-all').check();
      const all = await visibleRows(page);
      expect(all).toHaveLength(TARGETS);
      expect(all.slice(0, needing.length)).toEqual([...inconclusive, ...failing]);
      await page.locator('#show-inconclusive').check();
      expect(await visibleRows(page)).toEqual(inconclusive);
      await page.locator('#show-conformant').check();
      expect(await visibleRows(page)).toHaveLength(TARGETS - needing.length);
      await page.locator('#show-attention').check();
      expect(await visibleRows(page)).toEqual([...inconclusive, ...failing]);
      // Without script there is nothing to type into.
      expect(await page.locator('#name-filter').isVisible()).toBe(false);
      expect(violations).toEqual([]);
    });

    test('with script, the page policy lets its own script run and the name filter narrows the rows', async () => {
      const { page, violations } = await open(true);
      const box = page.locator('#name-filter');
      expect(await box.isVisible()).toBe(true);
      await page.locator('#show-all').check();
      await box.fill('host-00');
      expect(await visibleRows(page)).toHaveLength(99);
      await page.locator('#show-not-conformant').check();
      const failingEarly = needing.filter((row) => row.exitCode === 1 && row.name.startsWith('host-00')).map((row) => row.name);
      expect(await visibleRows(page)).toEqual(failingEarly);
      await box.fill('');
      await page.locator('#show-all').check();
      expect(await visibleRows(page)).toHaveLength(TARGETS);
      expect(violations).toEqual([]);
    });

    test('a large fleet with nothing to look at opens on the empty attention view and says so; a small one shows all', async () => {
      const green = rows
        .map((row) => target(row.position))
        .map((row) => ({ ...row, verdict: 'conformant' as const, exitCode: 0 as const }));
      const large = await open(false, await page('green.html', green));
      expect(await large.page.locator('#show-attention').isChecked()).toBe(true);
      expect(await visibleRows(large.page)).toEqual([]);
      expect(await large.page.locator('.nothing').isVisible()).toBe(true);
      await large.page.locator('#show-all').check();
      expect(await visibleRows(large.page)).toHaveLength(TARGETS);
      expect(await large.page.locator('.nothing').isVisible()).toBe(false);

      const small = await open(false, await page('small.html', green.slice(0, 3)));
      expect(await small.page.locator('#show-all').isChecked()).toBe(true);
      expect(await visibleRows(small.page)).toHaveLength(3);
    });
  },
);
