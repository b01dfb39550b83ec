import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { OUTCOMES } from '../src/report/model/outcomes.js';
import { VERDICTS } from '../src/report/model/types.js';
import { stylesheet } from '../src/report/views/stylesheet.js';
import { OUTCOME_WORDS, RUN_VERDICT_WORDS, TONES, VERDICT_WORDS, type Tone } from '../src/report/views/vocabulary.js';
import { everyVerdict, everyView } from './helpers/every-view.js';
import { repoRoot } from './helpers/run-cli.js';

/** WCAG's contrast ratio of two #rrggbb or #rgb colours. */
function contrast(first: string, second: string): number {
  const luminance = (hex: string): number => {
    const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
    const [r = 0, g = 0, b = 0] = digits.map((pair) => {
      const channel = Number.parseInt(pair, 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

const distinct = (values: unknown[]): boolean => new Set(values).size === values.length;

test('every verdict, outcome and run verdict has one label, one symbol and one colour, each told apart from the others', () => {
  expect(Object.keys(VERDICT_WORDS).sort()).toEqual([...VERDICTS].sort());
  expect(Object.keys(OUTCOME_WORDS).sort()).toEqual([...OUTCOMES].sort());
  expect(distinct(Object.values(VERDICT_WORDS).map(({ label }) => label))).toBe(true);
  expect(distinct(Object.values(VERDICT_WORDS).map(({ counted }) => counted))).toBe(true);
  expect(distinct(Object.values(OUTCOME_WORDS).map(({ word }) => word))).toBe(true);
  expect(distinct(Object.values(RUN_VERDICT_WORDS).map(({ label }) => label))).toBe(true);
  const symbols = Object.values(OUTCOME_WORDS).map(({ symbol }) => symbol);
  expect(distinct(symbols)).toBe(true);
  for (const symbol of symbols) expect([...symbol]).toHaveLength(1);
  // What fails the run, what could not be judged and what passed each have a colour no other outcome has.
  const tones = Object.values(OUTCOME_WORDS).map(({ tone }) => tone);
  for (const outcome of ['passed', 'failed', 'unjudged'] as const)
    expect(tones.filter((tone) => tone === OUTCOME_WORDS[outcome].tone)).toHaveLength(1);
  const paints = Object.values(TONES);
  expect(distinct(paints.map(({ ink }) => ink))).toBe(true);
  expect(distinct(paints.map(({ ansi }) => ansi))).toBe(true);
  for (const [tone, { ink, tint }] of Object.entries(TONES)) {
    expect(contrast(ink, '#ffffff'), `${tone} on white`).toBeGreaterThanOrEqual(4.5);
    expect(contrast(ink, tint), `${tone} on its tint`).toBeGreaterThanOrEqual(4.5);
  }
});

/** Changes the vocabulary for the length of a check, and puts it back whatever happens. */
function withVocabulary(change: () => void, check: () => void): void {
  const saved = structuredClone({ TONES, VERDICT_WORDS, OUTCOME_WORDS, RUN_VERDICT_WORDS });
  try {
    change();
    check();
  } finally {
    Object.assign(TONES, saved.TONES);
    Object.assign(VERDICT_WORDS, saved.VERDICT_WORDS);
    Object.assign(OUTCOME_WORDS, saved.OUTCOME_WORDS);
    Object.assign(RUN_VERDICT_WORDS, saved.RUN_VERDICT_WORDS);
  }
}

test('every view names and colours results from the vocabulary alone: changed there, it changes in each view', () => {
  const report = everyVerdict();
  expect(report.verdict).toBe('not-conformant');
  const before = everyView(report);
  const failTone: Tone = VERDICT_WORDS.fail.tone;
  const oldInk = TONES[failTone].ink;
  withVocabulary(
    () => {
      VERDICT_WORDS.fail.label = 'BROKE';
      VERDICT_WORDS.pass.label = 'HELD';
      OUTCOME_WORDS.failed.word = 'broke';
      OUTCOME_WORDS.failed.symbol = '#';
      OUTCOME_WORDS.passed.counted = ['held up', 'held up'];
      VERDICT_WORDS.fail.counted = 'broken';
      RUN_VERDICT_WORDS['not-conformant'].label = 'off the document';
      TONES[failTone] = { ...TONES[failTone], ink: '#7a0000', ansi: 91 };
    },
    () => {
      const after = everyView(report);
      const shown = (name: string, text: string): void => {
        expect(after[name], `${name} shows "${text}"`).toContain(text);
        expect(before[name], `${name} showed "${text}" before`).not.toContain(text);
      };
      shown('terminal', '\u001b[91mBROKE');
      shown('terminal', 'HELD ');
      shown('terminal', ' held up, ');
      shown('report.md', '| BROKE |');
      shown('report.md', ' held up, ');
      shown('report.html', ' broken</li>');
      shown('matrix.md', ' held up, ');
      shown('report.html', '>BROKE</span>');
      shown('report.html', '--fail:#7a0000');
      shown('report.html', '<title>Off the document: ');
      shown('junit.xml', 'HELD');
      shown('allure-results', '**BROKE**');
      shown('badge.svg', 'fill="#7a0000"');
      shown('matrix.md', 'BROKE');
      shown('matrix.html', '>#</td>');
      shown('matrix.html', '--fail:#7a0000');
      shown('history.html', '>BROKE</span>');
      shown('history.html', 'off the document');
      shown('history.html', '--fail:#7a0000');
      for (const [name, text] of Object.entries(after)) expect(text, `${name} still holds the old colour`).not.toContain(oldInk);
    },
  );
  expect(everyView(report)).toEqual(before);
});

test('one stylesheet: every page has the same palette, and every tone a class that paints with it', () => {
  const pages = (['report', 'history', 'matrix'] as const).map((page) => stylesheet(page));
  const palette = (css: string): string => /:root\{[^}]*\}/.exec(css)?.[0] ?? '';
  expect(new Set(pages.map(palette)).size).toBe(1);
  for (const [tone, { ink, tint }] of Object.entries(TONES)) {
    expect(palette(pages[0] ?? '')).toContain(`--${tone}:${ink};--${tone}-tint:${tint};`);
    for (const css of pages) expect(css).toContain(`.tone-${tone}{--tone:var(--${tone});--tone-tint:var(--${tone}-tint)}`);
  }
});

/** Every .ts file under a folder of the repository. */
async function sources(folder: string): Promise<string[]> {
  const entries = await readdir(join(repoRoot, folder), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

test('no module but the vocabulary names a colour, a verdict label or an outcome symbol', async () => {
  // The reference server's colours are the ticket statuses' own data, not the suite's.
  const files = (await sources('src')).filter(
    (path) => !path.endsWith(join('views', 'vocabulary.ts')) && !path.includes(join('src', 'reference-server')),
  );
  const copies = [/#(?:[0-9a-f]{3}){1,2}\b/i, /\\u001b\[(?:3|9)\d+m/, /['"`>](?:PASS|FAIL|WARN|SKIP|FLAKY|ERROR|ERR)['"`< ]/, /[✓✗✔✘]/];
  const found: string[] = [];
  for (const path of files) {
    (await readFile(path, 'utf8')).split('\n').forEach((line, index) => {
      if (copies.some((copy) => copy.test(line))) found.push(`${relative(repoRoot, path)}:${index + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
