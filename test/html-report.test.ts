import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Report } from '../src/report/model/types.js';
import { escapeHtml } from '../src/report/views/escape/html.js';
import { requestText, responseText } from '../src/report/views/exchange-text.js';
import { headline, renderHtml } from '../src/report/views/html.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { TEST_SAFETY_NET_MS } from './helpers/safety-net.js';
import { sampleReport } from './helpers/sample-report.js';

const HOSTILE = `</pre><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'"&<!--`;

function between(html: string, open: string, close: string): string {
  const start = html.indexOf(open) + open.length;
  return html.slice(start, html.indexOf(close, start));
}
const count = (html: string, pattern: RegExp): number => html.match(pattern)?.length ?? 0;

test('escapeHtml leaves no markup, and shows control and direction-override characters as codes', () => {
  expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  expect(escapeHtml('evil\u202Etxt.exe\u0007')).toBe('evil\\u{202e}txt.exe\\u{0007}');
  expect(escapeHtml('line\nnext\ttab')).toBe('line\nnext\ttab');
});

test('a hostile answer from the target reaches the page only as text', () => {
  const html = renderHtml(sampleReport(HOSTILE));
  expect(count(html, /<script/gi)).toBe(1);
  expect(count(html, /<img/gi)).toBe(0);
  expect(count(html, /<!--/g)).toBe(0);
  expect(html).not.toContain('window.__pwned = 1</script>');
  expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned = 2&quot;&gt;');
});

test('the page is self-contained: no external resource, and a CSP that admits only its own style and script', () => {
  const html = renderHtml(sampleReport());
  expect(html).not.toMatch(/\s(src|srcset|action|formaction|poster|data)=/i);
  expect(html).not.toMatch(/<link\b/i);
  for (const href of html.match(/href="[^"]*"/g) ?? []) expect(href).toMatch(/^href="#[\w-]+"$/);
  const policy = between(html, '<meta http-equiv="Content-Security-Policy" content="', '">');
  const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain(`style-src ${hash(between(html, '<style>', '</style>'))}`);
  expect(policy).toContain(`script-src ${hash(between(html, '<script>', '</script>'))}`);
});

test('the verdict sentence comes first, then totals, then failures (MUST before SHOULD), then every family', () => {
  const report = sampleReport();
  const html = renderHtml(report);
  const order = [
    `id="verdict">${escapeHtml(headline(report))}</p>`,
    'id="totals"',
    'id="attention"',
    'id="failure-AUTH-TOKEN-ACCEPTED"',
    'id="failure-STATUS-OPEN-FIRST"',
    'id="families"',
    'id="requirement-ENV-JSON"',
  ].map((marker) => html.indexOf(marker));
  expect(order.every((position) => position >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(count(html, /<details class="req"/g)).toBe(report.requirements.length + 2);
});

test('the verdict sentence names the likely cause in plain words, and falls back to the summary without one', () => {
  const report = structuredClone(sampleReport());
  report.diagnoses = [
    {
      id: 'token-refused',
      party: 'target',
      confidence: 'medium',
      summary: 'the token reached the application but was refused',
      evidence: 'HTTP 401',
      advice: [],
    },
  ];
  expect(headline(report)).toBe(`Not conformant: ${report.diagnoses[0]?.summary ?? ''}.`);
  report.diagnoses = [];
  expect(headline(report)).toBe(report.summary);
});

test('the footer carries the content hash the report was sealed with when it was built', () => {
  const report = sampleReport();
  expect(report.integrity?.content).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(renderHtml(report)).toContain(`Content hash of report.json: ${report.integrity?.content ?? 'missing'}`);
});

describe('each exchange once: outside the failures, a requirement links to its one copy', () => {
  const { inProcess } = fileResources({ reports: ['json', 'html'] });
  /** A recording whose web server strips the Authorization header: failures, and requirements that share requests. */
  const judged = async (): Promise<{ report: Report; html: string }> => {
    const out = join(await mkdtemp(join(tmpdir(), 'html-exchanges-')), 'out');
    const run = await inProcess.exec([
      'judge',
      join(repoRoot, 'test/fixtures/recordings/authorization-stripped.recording.json'),
      '--out',
      out,
    ]);
    expect(run.code).toBe(1);
    const [report, html] = await Promise.all([readFile(join(out, 'report.json'), 'utf8'), readFile(join(out, 'report.html'), 'utf8')]);
    return { report: JSON.parse(report) as Report, html };
  };

  /** The element of the page with that id, up to its end (details, a section's record or a div of its own). */
  const element = (html: string, id: string): string => {
    const start = html.indexOf(`id="${id}"`);
    expect(start, id).toBeGreaterThan(0);
    const end = html.indexOf(html.includes(`<details class="req" id="${id}"`) ? '</details>' : '</dl></div>', start);
    return html.slice(start, end);
  };

  test(
    'every exchange a requirement judged is reachable from it, and shown in full exactly once outside the failures',
    { timeout: TEST_SAFETY_NET_MS },
    async () => {
      const { report, html } = await judged();
      const failures = report.requirements.filter((result) => html.includes(`id="failure-${result.id}"`));
      expect(failures.length).toBeGreaterThan(0);
      let shared = 0;
      for (const result of report.requirements) {
        const keys = [...new Set(result.checks.flatMap((check) => (check.exchange === undefined ? [] : [check.exchange])))];
        const details = element(html, `requirement-${result.id}`);
        for (const key of keys) {
          const exchange = report.exchanges[key];
          if (!exchange) throw new Error(`${key} is not among the report's exchanges`);
          const line = `${escapeHtml(`${exchange.request.method} ${exchange.request.url}`)} &rarr; HTTP ${exchange.response.status}`;
          // report.json holds headers in canonical order, the page as they were sent: each line is looked for.
          const lines = [...requestText(exchange.request).split('\n'), ...responseText(exchange.response).split('\n'), exchange.repro];
          // Requests to one URL with other credentials read alike: the link is the one whose copy shows this exchange.
          const copies = [...details.matchAll(/<a href="#(exchange-\d+)">([^<]*)<\/a>/g)]
            .filter(([, , text]) => text === line)
            .map(([, id]) => element(html, id ?? ''))
            .filter((copy) => lines.every((shown) => copy.includes(escapeHtml(shown))));
          expect(copies, `${result.id}: ${key}`).toHaveLength(1);
          expect(copies[0]).toContain(`<a href="#requirement-${result.id}">${result.id}</a>`);
          shared += 1;
        }
      }
      expect(shared).toBeGreaterThan(Object.keys(report.exchanges).length);
      expect(count(html, /<div class="exchange-record"/g)).toBe(Object.keys(report.exchanges).length);
      // A failure shows its exchanges in place, where a reader looks first.
      for (const result of failures) {
        const details = element(html, `failure-${result.id}`);
        for (const check of result.checks) {
          const exchange = check.exchange === undefined ? undefined : report.exchanges[check.exchange];
          if (exchange) expect(details).toContain(escapeHtml(exchange.response.body));
        }
      }
    },
  );
});
