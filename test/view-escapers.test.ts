import MarkdownIt from 'markdown-it';
import { expect, test } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { contentSecurityPolicy, escapeHtml, htmlPage, markup } from '../src/report/views/escape/html.js';
import { safeLink } from '../src/report/views/escape/link.js';
import { markdownCodeBlock, markdownText } from '../src/report/views/escape/markdown.js';
import { terminalLine, terminalLines } from '../src/report/views/escape/terminal.js';
import { escapeXml, xml } from '../src/report/views/escape/xml.js';

/** What no view may show as it came: controls, DEL, C1, bidi controls, separators, U+FFFE/U+FFFF, lone surrogates. */
const HIDDEN =
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every UTF-16 code unit, lone surrogates included. */
const EVERY_CODE_UNIT = Array.from({ length: 0x10000 }, (_, unit) => String.fromCharCode(unit));

const TERMINAL_ATTACKS = {
  'clear screen': '\u001b[2J\u001b[H',
  'window title': '\u001b]0;FORGED title\u0007',
  'OSC 8 link': '\u001b]8;;https://evil.example/\u001b\\FORGED link\u001b]8;;\u001b\\',
  'OSC 52 clipboard write': '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007',
  'hidden text': '\u001b[8mFORGED hidden\u001b[0m',
  'carriage return and a fake totals line': 'x\r26 passed, 0 failed, 0 skipped',
  'line feed and a fake totals line': 'x\n26 passed, 0 failed, 0 skipped',
  bell: '\u0007\u0007',
  'C1 control sequence introducer': '\u009b2J',
  'right-to-left override': 'evil\u202Etxt.exe',
  'line separator': 'a\u2028b\u2029c',
};

test.each(Object.entries(TERMINAL_ATTACKS))('a terminal line shows a %s as codes, on one line', (_name, attack) => {
  const line = terminalLine(`Actual: ${attack}`);
  expect(line).not.toMatch(HIDDEN);
  expect(line.startsWith('Actual: ')).toBe(true);
  expect(line.split('\n')).toHaveLength(1);
});

test('a terminal line keeps every other character, and shows each hidden one by its code', () => {
  expect(terminalLine('\u001b[31mred\r\n\t\u009b\u202e\ud800')).toBe('\\u{001b}[31mred\\r\\n\\t\\u{009b}\\u{202e}\\u{d800}');
  expect(terminalLine('naïve café 日本 🎉 "quotes" | pipes')).toBe('naïve café 日本 🎉 "quotes" | pipes');
  const hidden = EVERY_CODE_UNIT.filter((unit) => terminalLine(unit) !== unit);
  expect(hidden.every((unit) => HIDDEN.test(unit))).toBe(true);
  expect(EVERY_CODE_UNIT.map(terminalLine).join('')).not.toMatch(HIDDEN);
  expect(terminalLines(['one\rtwo', 'three'])).toBe('one\\rtwo\nthree');
});

test.each([
  ['a page', escapeHtml, '\n\r\t', /&(?:amp|lt|gt|quot|#39);/g],
  ['XML', escapeXml, '\n\t', /&(?:amp|lt|gt|quot|apos);/g],
] as const)(
  '%s shows every hidden code unit by its code, in a text of any length, and keeps only its own layout',
  (_name, escape, kept, entity) => {
    // Alone, and inside a longer text: a text with no hidden character is returned as it came, so each must be found.
    for (const around of [
      ['', ''],
      ['plain text before ', ' and after'],
    ]) {
      const [before = '', after = ''] = around;
      const changed = EVERY_CODE_UNIT.filter(
        (unit) => escape(`${before}${unit}${after}`).replace(entity, 'x') !== `${before}${unit}${after}`,
      );
      const expected = EVERY_CODE_UNIT.filter((unit) => (HIDDEN.test(unit) && !kept.includes(unit)) || '&<>"\''.includes(unit));
      expect(changed).toEqual(expected);
    }
    expect(
      EVERY_CODE_UNIT.filter((unit) => !kept.includes(unit))
        .map((unit) => escape(`x${unit}`))
        .join(''),
    ).not.toMatch(HIDDEN);
    expect(escape('\ud83c\udf89 paired, \ud800 lone')).toBe('\ud83c\udf89 paired, \\u{d800} lone');
  },
);

// Raw HTML on, as GitHub renders it.
const md = new MarkdownIt({ html: true });
type Token = ReturnType<MarkdownIt['parse']>[number];
const flat = (tokens: Token[]): Token[] => tokens.flatMap((token) => [token, ...flat(token.children ?? [])]);
/** Token types that text from a target must never make. */
const FORGED_TYPES = ['heading_open', 'image', 'link_open', 'html_inline', 'html_block', 'strong_open', 'em_open', 's_open', 'code_inline'];

const MARKDOWN_ATTACKS = {
  'a closing fence and a heading': '```\n# FORGED Conformant\n```',
  'a bare carriage return and a heading': 'x\r# FORGED heading',
  'a line separator and a heading': 'x\u2028# FORGED\u2029## FORGED',
  'bold and emphasis': '**FORGED PASS** _FORGED_ ~~FORGED~~',
  'an image': '![FORGED](https://evil.example/pixel.png)',
  'a link': '[FORGED](javascript:alert(1)) <https://evil.example>',
  'raw HTML': '<img src=x onerror=alert(1)><b>FORGED</b><!-- hide -->',
  'an entity': '&#124; &lt;FORGED&gt;',
  'a table break': 'a | b || c\n|---|---|',
  'inline code': '`FORGED` ``FORGED``',
  'a long backtick run': '``````````FORGED``````````',
  'a vertical tab, form feed and NEL': 'x\u000b# FORGED\u000c# FORGED\u0085# FORGED',
};

test.each(Object.entries(MARKDOWN_ATTACKS))('in a Markdown table cell, %s stays text in its cell', (_name, attack) => {
  const document = `| Check | Actual |\n|---|---|\n| one | ${markdownText(attack)} |\n`;
  const tokens = flat(md.parse(document, {}));
  expect(tokens.filter((token) => FORGED_TYPES.includes(token.type)).map((token) => token.type)).toEqual([]);
  expect(tokens.filter((token) => token.type === 'tr_open')).toHaveLength(2);
  expect(tokens.filter((token) => token.type === 'td_open')).toHaveLength(2);
  const cell = tokens.filter((token) => token.type === 'inline').at(-1)?.content ?? '';
  // What a reader sees is the attack itself, its hidden characters shown as codes.
  expect(
    md.renderInline(cell).replace(/&[a-z]+;/g, (entity) => ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' })[entity] ?? entity),
  ).toBe(terminalLine(attack));
});

test.each(Object.entries(MARKDOWN_ATTACKS))('in a Markdown list item, %s makes nothing', (_name, attack) => {
  const tokens = flat(md.parse(`- **ID**: ${markdownText(attack)}\n- next\n`, {}));
  expect(tokens.filter((token) => token.type === 'list_item_open')).toHaveLength(2);
  expect(tokens.filter((token) => FORGED_TYPES.includes(token.type)).map((token) => token.type)).toEqual(['strong_open']);
});

test.each(Object.entries(MARKDOWN_ATTACKS))('a Markdown code block holds %s whole: no line closes it', (_name, attack) => {
  const lines = ['Expected: HTTP 200', `Actual:   ${attack}`, '```', '````'];
  const tokens = md.parse(['# Report', '', ...markdownCodeBlock(lines), '', 'after'].join('\n'), {});
  expect(tokens.map((token) => token.type)).toEqual([
    'heading_open',
    'inline',
    'heading_close',
    'fence',
    'paragraph_open',
    'inline',
    'paragraph_close',
  ]);
  expect(tokens[3]?.content).toBe(`${lines.map(terminalLine).join('\n')}\n`);
});

test('every code unit, XML-forbidden ones included, gives well-formed XML in an element and an attribute', async () => {
  const text = EVERY_CODE_UNIT.join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<doc note="${escapeXml(text)}">${escapeXml(text)}</doc>\n`;
  const schema =
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="doc"><xs:complexType><xs:simpleContent>' +
    '<xs:extension base="xs:string"><xs:attribute name="note" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType></xs:element></xs:schema>';
  const result = await validateXML({ xml: [{ fileName: 'doc.xml', contents: xml }], schema: [{ fileName: 'doc.xsd', contents: schema }] });
  expect(result.errors.map((error) => error.rawMessage)).toEqual([]);
  expect(escapeXml('\uFFFE\uFFFF\uD800x\uDC00\u0000\r<&>"\'')).toBe(
    '\\u{fffe}\\u{ffff}\\u{d800}x\\u{dc00}\\u{0000}\\r&lt;&amp;&gt;&quot;&apos;',
  );
  expect(escapeXml('line\nnext\ttab 🎉')).toBe('line\nnext\ttab 🎉');
});

test('a page template escapes every value, shows hidden characters, and inserts only its own markup as it is', () => {
  const hostile = `</pre><script>alert(1)</script>'"&\u001b[2J\u202e`;
  const page = markup`<p title="${hostile}">${hostile}${markup`<b>${hostile}</b>`}${[hostile, 1, undefined, false]}</p>`.toString();
  const escaped = escapeHtml(hostile);
  expect(escaped).toBe('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;&quot;&amp;\\u{001b}[2J\\u{202e}');
  expect(page).toBe(`<p title="${escaped}">${escaped}<b>${escaped}</b>${escaped}1</p>`);
  expect(escapeHtml('line\nnext\r\ttab')).toBe('line\nnext\r\ttab');
});

test.each([
  ['javascript:alert(1)', '#'],
  ['JavaScript:alert(1)', '#'],
  [' java\tscript:alert(1)', '#'],
  ['data:text/html,<script>alert(1)</script>', '#'],
  ['vbscript:msgbox', '#'],
  ['file:///etc/passwd', '#'],
  ['targets/prod/report.html', 'targets/prod/report.html'],
  ['../shard-1/targets/a%20b/report.md', '../shard-1/targets/a%20b/report.md'],
  ['https://help.example.com/', 'https://help.example.com/'],
])('a link to %s is written as %s', (href, written) => {
  expect(safeLink(href) ?? '#').toBe(written);
  expect(markup`<a href="${href}">x</a>`.toString()).toBe(`<a href="${escapeHtml(written)}">x</a>`);
});

test('every page gets one strict policy: nothing fetched, only its own style and script', () => {
  const page = htmlPage({ title: '<t>', style: 'p{color:red}', body: markup`<p>x</p>` });
  const policy = contentSecurityPolicy('p{color:red}');
  expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  expect(policy).toMatch(
    /^default-src 'none'; style-src 'sha256-[^']+'; script-src 'none'; img-src 'none'; base-uri 'none'; form-action 'none'$/,
  );
  expect(page).toContain('<title>&lt;t&gt;</title>');
  expect(page).not.toContain('<script');
});

test('an XML template escapes every value, keeps to XML 1.0 characters, and inserts only its own XML as it is', () => {
  const hostile = `"/><injected a="1"/>&\uFFFE\u0000\uD800`;
  const escaped = escapeXml(hostile);
  expect(escaped).toBe('&quot;/&gt;&lt;injected a=&quot;1&quot;/&gt;&amp;\\u{fffe}\\u{0000}\\u{d800}');
  const inner = xml`<b>${hostile}</b>`;
  expect(xml`<a note="${hostile}">${inner}${[hostile, 2]}</a>`.toString()).toBe(`<a note="${escaped}"><b>${escaped}</b>${escaped}2</a>`);
});
