import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import { countsLine } from '../../src/report/views/failure-text.js';
import { headline, renderHtml } from '../../src/report/views/html.js';
import { confidenceLine, STOP_MARK } from '../../src/report/views/request-path.js';
import type { Diagnosis } from '../../src/diagnosis/types.js';
import type { Report } from '../../src/report/model/types.js';
import { exchangeOf, VERDICTS } from '../../src/report/model/types.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { inProcessRuns } from '../helpers/in-process-runs.js';
import type { CliRun } from '../helpers/run-cli.js';
import { sampleReport } from '../helpers/sample-report.js';

const TOKEN = 'html-report-token-7c1e0b';
const FAILURE = 'AUTH-TOKEN-ACCEPTED';
const MAX_TABS = 80;

let server: RunningReferenceServer | undefined;
/** The page is what is tested: the report is written by a run in this process, judged by the worker's spec runner. */
const inProcess = inProcessRuns({ reports: ['json', 'html'] });
let run: CliRun | undefined;
let browser: Browser | undefined;

function failedRun(): { run: CliRun; report: Report; page: string } {
  if (!run?.report) throw new Error('the failing run wrote no report.json');
  return { run, report: run.report, page: pathToFileURL(join(run.outDir, 'report.html')).href };
}

async function open(url: string, options: Parameters<Browser['newPage']>[0] = {}): Promise<{ page: Page; requests: string[] }> {
  if (!browser) throw new Error('Chromium did not start');
  const page = await browser.newPage(options);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  return { page, requests };
}

/** Reads the contrast of each element's text against the first opaque background behind it (WCAG 2 formula). */
function lowContrast(page: Page, selectors: string[]): Promise<string[]> {
  return page.evaluate((wanted) => {
    const channels = (colour: string): number[] => (colour.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = (colour: string): number => {
      const [r = 0, g = 0, b = 0] = channels(colour).map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (element: Element | null): string => {
      for (let at = element; at; at = at.parentElement) {
        const colour = getComputedStyle(at).backgroundColor;
        if ((channels(colour)[3] ?? 1) > 0) return colour;
      }
      return 'rgb(255, 255, 255)';
    };
    const problems: string[] = [];
    for (const selector of wanted) {
      const elements = [...document.querySelectorAll(selector)].slice(0, 5);
      if (elements.length === 0) problems.push(`${selector}: not found`);
      for (const element of elements) {
        const [light, dark] = [luminance(getComputedStyle(element).color), luminance(background(element))].sort((a, b) => b - a);
        const ratio = ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
        if (ratio < 4.5) problems.push(`${selector}: ${ratio.toFixed(2)}:1`);
      }
    }
    return problems;
  }, selectors);
}

/** A cause at each end of the path and at each confidence, with evidence no narrow card can hold on one line. */
const DIAGNOSES: Diagnosis[] = [
  {
    id: 'token-refused',
    party: 'environment',
    confidence: 'high',
    summary: 'the token reached the application and was refused as wrong: check that --token is right',
    evidence: `GET /api/ticket/status/1?lang=${'x'.repeat(400)} answered HTTP 401`,
    advice: [`Open ${'https://help.example.com/'.repeat(12)} and copy the token again.`],
  },
  {
    id: 'target-not-reachable',
    party: 'environment',
    confidence: 'low',
    summary: 'no answer came back from the address, which may be a firewall or a wrong port',
    evidence: 'connect ECONNREFUSED 127.0.0.1:9',
    advice: [],
  },
  {
    id: 'authorization-header-stripped',
    party: 'environment',
    confidence: 'medium',
    summary: 'either the web server strips the Authorization header, or the token is wrong',
    evidence: `with the token and with no Authorization header, GET /api/ticket/status/1 got the same answer: ${'{"status":"error"}'.repeat(30)}`,
    advice: [],
  },
];
const STOPPED_AT: Partial<Record<Diagnosis['id'], string>> = {
  'token-refused': 'Application',
  'target-not-reachable': 'Client',
  'authorization-header-stripped': 'PHP handler',
};

/**
 * Every element or run of text inside the container whose box passes the container's left or right edge. Text is
 * measured apart: a word too long for its paragraph runs past the paragraph's box without widening it.
 */
function outsideOf(container: Locator): Promise<string[]> {
  return container.evaluate((card) => {
    const edge = card.getBoundingClientRect();
    const passes = (box: DOMRect): boolean => box.width > 0 && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5);
    const name = (element: Element | null): string => `${element?.tagName.toLowerCase() ?? '?'}.${element?.getAttribute('class') ?? ''}`;
    const found = [...card.querySelectorAll('*')]
      .filter((element) => passes(element.getBoundingClientRect()))
      .map((element) => `${name(element)} box`);
    const texts = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      range.selectNodeContents(node);
      if (passes(range.getBoundingClientRect())) found.push(`${name(node.parentElement)} text "${node.textContent?.slice(0, 30) ?? ''}"`);
    }
    return found;
  });
}

describe.skipIf(chromiumMissing !== undefined)(
  `report.html in headless Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    beforeAll(async () => {
      server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
      [run, browser] = await Promise.all([inProcess.run(['--base-url', server.url, '--token', TOKEN]), launchChromium()]);
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), server?.close(), inProcess.close()]);
    });

    test('shows the verdict sentence and the counts, and loads nothing but itself', async () => {
      const { report, page: url } = failedRun();
      expect(report.verdict).toBe('not-conformant');
      const { page, requests } = await open(url);
      await expect.poll(() => page.locator('#verdict').innerText()).toBe(headline(report));
      expect(headline(report)).toMatch(/^Not conformant: .*the Authorization header is most likely stripped on the way to/);
      for (const verdict of VERDICTS) expect(await page.locator(`.t-${verdict} .n`).innerText()).toBe(String(report.totals[verdict]));
      expect(await page.getByText(countsLine(report.totals)).isVisible()).toBe(true);
      expect(requests).toEqual([url]);
      await page.close();
    });

    test('a failure expands from the keyboard and shows the quote, expected and actual, request, response and repro', async () => {
      const { run: failing, report, page: url } = failedRun();
      const check = report.requirements.find((result) => result.id === FAILURE)?.checks.find((entry) => entry.verdict === 'fail');
      const exchange = check && exchangeOf(report, check);
      if (!check || !exchange) throw new Error(`${FAILURE} has no failed check with an exchange`);
      const { page } = await open(url, { viewport: { width: 1000, height: 900 } });
      const details = page.locator(`#failure-${FAILURE}`);
      expect(await details.locator('.req-body').isVisible()).toBe(false);

      let tabs = 0;
      const onSummary = (): Promise<boolean> =>
        page.evaluate((id) => document.activeElement?.parentElement?.id === id, `failure-${FAILURE}`);
      while (!(await onSummary()) && tabs < MAX_TABS) {
        await page.keyboard.press('Tab');
        tabs += 1;
      }
      expect(tabs).toBeLessThan(MAX_TABS);
      expect(await page.evaluate(() => getComputedStyle(document.activeElement ?? document.body).outlineStyle)).toBe('solid');
      await page.keyboard.press('Enter');

      const body = details.locator('.req-body');
      expect(await details.getAttribute('open')).not.toBeNull();
      expect(await body.isVisible()).toBe(true);
      const text = await body.innerText();
      const quote = report.requirements.find((result) => result.id === FAILURE)?.quote ?? '';
      for (const shown of [
        quote,
        check.expected ?? '',
        check.actual ?? '',
        `GET ${exchange.request.url}`,
        'authorization: Basic <redacted>',
      ])
        expect(text).toContain(shown);
      expect(text).toContain(`HTTP ${exchange.response.status}`);
      expect(text).toContain(exchange.repro);
      expect(text).not.toContain(TOKEN);

      const screenshot = join(failing.outDir, 'report-html.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      expect((await readFile(screenshot)).subarray(1, 4).toString()).toBe('PNG');
      await page.close();
    });

    test('a click expands a failure, and its copy button puts the curl repro on the clipboard without network', async () => {
      const { report, page: url } = failedRun();
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ offline: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      await page.goto(url);
      const id = 'AUTH-PASSWORD-IGNORED';
      const details = page.locator(`#failure-${id}`);
      await details.locator('summary').click();
      const copy = details.locator('button.copy').first();
      expect(await copy.isVisible()).toBe(true);
      await copy.click();
      await expect.poll(() => details.locator('.copied').first().innerText()).toBe('Copied');
      const failed = report.requirements.find((result) => result.id === id)?.checks.find((check) => check.verdict === 'fail');
      const repro = failed && exchangeOf(report, failed)?.repro;
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(repro);
      await context.close();
    });

    test('the likely cause shows its configuration blocks, each with a Copy button that copies exactly those lines', async () => {
      const { report, page: url, run: failing } = failedRun();
      const diagnosis = report.diagnoses[0];
      expect(diagnosis?.snippets?.length).toBeGreaterThan(0);
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ offline: true, viewport: { width: 1100, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(url);
      const snippets = page.locator('.diagnosis').first().locator('.snippet');
      expect(await snippets.count()).toBe(diagnosis?.snippets?.length);
      for (const [index, snippet] of (diagnosis?.snippets ?? []).entries()) {
        const block = snippets.nth(index);
        expect(await block.locator('.snippet-where').innerText()).toBe(`${snippet.label}:`);
        expect(await block.locator('pre').innerText()).toBe(snippet.lines.join('\n'));
        await block.locator('button.copy').click();
        await expect.poll(() => block.locator('.copied').innerText()).toBe('Copied');
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet.lines.join('\n'));
      }
      expect(violations).toEqual([]);
      await page
        .locator('.diagnosis')
        .first()
        .screenshot({ path: join(failing.outDir, 'diagnosis.png') });
      await context.close();
    });

    test('each diagnosis draws the path of a request and marks the station where it stopped, as surely as its words', async () => {
      const { report, page: url, run: failing } = failedRun();
      const diagnosis = report.diagnoses[0];
      if (!diagnosis) throw new Error('the failing run has no diagnosis');
      const { page } = await open(url, { viewport: { width: 1100, height: 900 } });
      const pictures = page.locator('.diagnosis figure.path');
      expect(await pictures.count()).toBe(report.diagnoses.length);
      const picture = pictures.first();
      // Client, proxy and web server were passed; the PHP handler is where the Authorization header was lost.
      const states = await picture.locator('li.hop').evaluateAll((hops) => hops.map((hop) => hop.getAttribute('class')));
      expect(states).toEqual(['hop hop-passed', 'hop hop-passed', 'hop hop-passed', 'hop hop-stopped', 'hop hop-unreached']);
      expect(await picture.locator('.hop-stopped .hop-name').textContent()).toBe('PHP handler');
      // The diagnosis names two explanations at medium confidence: the picture does not claim more.
      expect(diagnosis.confidence).toBe('medium');
      expect(await picture.locator('.stop-mark').innerText()).toBe('✕ Most likely here (medium confidence)');
      expect(await page.getByRole('list', { name: /most likely stopped at the php handler \(medium confidence\)/ }).count()).toBe(1);
      await page
        .locator('.diagnosis')
        .first()
        .screenshot({ path: join(failing.outDir, 'request-path.png') });
      await page.close();
    });

    for (const width of [1280, 390]) {
      test(`at ${width} px the picture says what the diagnosis says, and nothing in a diagnosis passes its card`, async () => {
        const { run: failing } = failedRun();
        const file = join(failing.outDir, `diagnoses-${width}.html`);
        // The report is frozen once built: the diagnoses go into a copy.
        await writeFile(file, renderHtml({ ...sampleReport(), diagnoses: DIAGNOSES }));
        const { page } = await open(pathToFileURL(file).href, { viewport: { width, height: 900 } });
        const cards = page.locator('.diagnosis');
        expect(await cards.count()).toBe(DIAGNOSES.length);
        for (const [index, diagnosis] of DIAGNOSES.entries()) {
          const card = cards.nth(index);
          expect(await card.locator('figcaption .cause').innerText()).toBe(diagnosis.summary);
          expect(await card.locator('figcaption .source').innerText()).toBe(confidenceLine(diagnosis));
          expect(await card.locator('.stop-mark').innerText()).toBe(`✕ ${STOP_MARK[diagnosis.confidence].mark}`);
          expect(await card.locator('.hop-stopped .hop-name').innerText()).toBe(STOPPED_AT[diagnosis.id]);
          expect(await outsideOf(card.locator('.request-path'))).toEqual([]);
          expect(await outsideOf(card)).toEqual([]);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: join(failing.outDir, `diagnoses-${width}.png`), fullPage: true });
        await page.close();
      });
    }

    test('on a phone-sized screen the verdict is on the first screen and nothing overflows sideways', async () => {
      const { page } = await open(failedRun().page, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
      await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
      const box = await page.locator('#verdict').boundingBox();
      expect(box && box.y + box.height).toBeLessThan(740);
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.screen);
      await page.close();
    });

    test('printed, every requirement is expanded and the buttons and navigation are left out', async () => {
      const { page } = await open(failedRun().page);
      const bodies = page.locator('details.req .req-body');
      expect(await bodies.first().isVisible()).toBe(false);
      await page.emulateMedia({ media: 'print' });
      const visible = await bodies.evaluateAll((elements) => elements.filter((element) => element.checkVisibility()).length);
      expect(visible).toBe(await bodies.count());
      expect(await page.locator('nav').isVisible()).toBe(false);
      expect(await page.locator('button.copy').first().isVisible()).toBe(false);
      await page.close();
    });

    test('landmarks, one h1, no skipped heading level, and text contrast of at least 4.5:1', async () => {
      const { page } = await open(failedRun().page);
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      for (const role of ['banner', 'main', 'contentinfo', 'navigation'] as const) expect(await page.getByRole(role).count()).toBe(1);
      const levels = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));
      expect(levels[0]).toBe(1);
      expect(levels.filter((level) => level === 1)).toHaveLength(1);
      expect(levels.every((level, index) => index === 0 || level <= (levels[index - 1] ?? 1) + 1)).toBe(true);
      await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
      const selectors = [
        'body',
        'h1',
        '.verdict',
        '.meta dt',
        '.plain',
        '.level',
        '.source',
        '.fields dt',
        '.http dt',
        'pre',
        'a',
        '.copy',
      ];
      // A refused token leaves the SHOULD unjudged: the warn badge is looked at on a report that has one.
      const badges = ['pass', 'fail', 'info', 'skip'].map((verdict) => `.badge.b-${verdict}`);
      expect(await lowContrast(page, [...selectors, ...badges])).toEqual([]);
      await page.close();
      const warned = join(failedRun().run.outDir, 'warned.html');
      await writeFile(warned, renderHtml(sampleReport()));
      const { page: warnedPage } = await open(pathToFileURL(warned).href);
      expect(await lowContrast(warnedPage, ['.badge.b-warn'])).toEqual([]);
      await warnedPage.close();
    });

    test('a hostile answer stays text: its script and handlers do not run, with or without the CSP', async () => {
      const { run: failing } = failedRun();
      const hostile = `</pre><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;
      const html = renderHtml(sampleReport(hostile));
      const withoutPolicy = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
      const injected = (page: string): string => page.replace('<main id="main" class="wrap">', `$&${hostile}`);
      const pages = {
        escaped: html,
        escapedWithoutPolicy: withoutPolicy,
        rawWithPolicy: injected(html),
        rawWithoutPolicy: injected(withoutPolicy),
      };
      const pwned: Record<string, unknown> = {};
      for (const [name, content] of Object.entries(pages)) {
        const file = join(failing.outDir, `hostile-${name}.html`);
        await writeFile(file, content);
        const { page } = await open(pathToFileURL(file).href);
        await page.waitForLoadState('load');
        pwned[name] = await page.evaluate(() => (window as { __pwned?: number }).__pwned ?? null);
        if (name.startsWith('escaped')) {
          await page.locator(`#failure-AUTH-TOKEN-ACCEPTED summary`).click();
          expect(await page.locator('#failure-AUTH-TOKEN-ACCEPTED').innerText()).toContain('<script>window.__pwned = 1</script>');
        }
        await page.close();
      }
      // The raw page without a policy proves the probe sees a script that runs; each defence holds on its own.
      expect(pwned).toEqual({ escaped: null, escapedWithoutPolicy: null, rawWithPolicy: null, rawWithoutPolicy: expect.any(Number) });
    });
  },
);
