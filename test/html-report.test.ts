import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { escapeHtml } from '../src/report/views/escape/html.js';
import { headline, renderHtml } from '../src/report/views/html.js';
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
