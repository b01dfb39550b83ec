import type { Outcome } from '../model/outcomes.js';
import type { BaselineResult, Report, RunVerdict, Verdict } from '../model/types.js';

/**
 * The words, symbols and colours every view names results by (the terminal, report.md, report.html, the badge, the
 * matrix, history.html and the CI files), as Vitest's reporters all draw from one file of figures. A view looks a result
 * up here and defines none of its own, so no two views can name or colour one result differently.
 */

/** The colours results are painted in: the gate's three answers, and what it lets through. */
export type Tone = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error';

export interface Paint {
  /** Text, borders and filled labels: at least 4.5:1 against white, and white text on it likewise. */
  ink: string;
  /** A light fill for a cell whose text is the ink. */
  tint: string;
  /** The SGR colour of a terminal. */
  ansi: number;
}

export const TONES: Record<Tone, Paint> = {
  pass: { ink: '#1b5e20', tint: '#d8f0dc', ansi: 32 },
  fail: { ink: '#b00020', tint: '#f8d4d4', ansi: 31 },
  warn: { ink: '#8a4b00', tint: '#fbeac2', ansi: 33 },
  info: { ink: '#0b5394', tint: '#e3ecf8', ansi: 36 },
  skip: { ink: '#545454', tint: '#eeeeee', ansi: 90 },
  error: { ink: '#6a1b9a', tint: '#ead7f2', ansi: 35 },
};

/** The colours of the pages around the results. */
export const PAGE_COLOURS = {
  fg: '#1a1a1a',
  muted: '#4a4a4a',
  bg: '#fff',
  panel: '#f3f4f6',
  line: '#c9ced6',
  focus: '#1a56db',
  /** Bars of what is neither passed nor failed, beside the tones. */
  neutral: '#9aa1ab',
} as const;

/** The shields.io badge's own colours around the verdict's: its label's grey, gloss, text and the text's shadow. */
export const BADGE_COLOURS = { label: '#555', gloss: '#bbb', text: '#fff', shadow: '#010101' } as const;

export interface VerdictWords {
  /** The label of a requirement or check: PASS, FAIL. */
  label: string;
  /** How a count of them is named, in report.html's totals and the doctor's counts line: 3 passed, 2 warnings. */
  counted: string;
  tone: Tone;
}

/** A requirement's or a check's verdict. A flaky one is coloured as a warning: it passed in some runs. */
export const VERDICT_WORDS: Record<Verdict, VerdictWords> = {
  pass: { label: 'PASS', counted: 'passed', tone: 'pass' },
  fail: { label: 'FAIL', counted: 'failed', tone: 'fail' },
  warn: { label: 'WARN', counted: 'warnings', tone: 'warn' },
  info: { label: 'INFO', counted: 'observations', tone: 'info' },
  skip: { label: 'SKIP', counted: 'skipped', tone: 'skip' },
  error: { label: 'ERROR', counted: 'could not be judged', tone: 'error' },
  flaky: { label: 'FLAKY', counted: 'flaky', tone: 'warn' },
};

/** The widest verdict label, so that labels set in a column line up. */
export const LABEL_WIDTH = Math.max(...Object.values(VERDICT_WORDS).map(({ label }) => label.length));

export interface OutcomeWords {
  /** The word of a cell: pass, warning, could not judge. */
  word: string;
  /** One character for a cell of a large grid. */
  symbol: string;
  /** How a count of them is named in a counts line, for one and for several. */
  counted: readonly [one: string, several: string];
  tone: Tone;
}

/** What a verdict is to the gate (report/model/outcomes.ts). A waived failure is greyed as a skip: it fails nothing. */
export const OUTCOME_WORDS: Record<Outcome, OutcomeWords> = {
  passed: { word: 'pass', symbol: '✓', counted: ['passed', 'passed'], tone: 'pass' },
  failed: { word: 'fail', symbol: '✗', counted: ['failed', 'failed'], tone: 'fail' },
  warned: { word: 'warning', symbol: '!', counted: ['warning', 'warnings'], tone: 'warn' },
  waived: { word: 'waived', symbol: 'w', counted: ['waived', 'waived'], tone: 'skip' },
  skipped: { word: 'skip', symbol: '–', counted: ['skipped', 'skipped'], tone: 'skip' },
  observed: { word: 'info', symbol: 'i', counted: ['info', 'info'], tone: 'info' },
  unjudged: { word: 'could not judge', symbol: 'E', counted: ['could not be judged', 'could not be judged'], tone: 'error' },
};

/** A count of an outcome in words: "1 warning", "3 passed". */
export const countedOutcome = (outcome: Outcome, count: number): string =>
  `${count} ${OUTCOME_WORDS[outcome].counted[count === 1 ? 0 : 1]}`;

/** A count of a verdict in words: "3 passed", "1 flaky". */
export const countedVerdict = (verdict: Verdict, count: number): string => `${count} ${VERDICT_WORDS[verdict].counted}`;

/** The run's verdict, as its exit code gives it. */
export const RUN_VERDICT_WORDS: Record<RunVerdict, { label: string; tone: Tone }> = {
  conformant: { label: 'conformant', tone: 'pass' },
  'not-conformant': { label: 'not conformant', tone: 'fail' },
  inconclusive: { label: 'no verdict', tone: 'error' },
};

/** What the official client would make of the server (--profile). */
export const PROFILE_TONES: Record<NonNullable<Report['profile']>['outcome'], Tone> = {
  'would-work': 'pass',
  'would-fail': 'warn',
  'not-judged': 'skip',
};

/** A baseline entry's state in this run. */
export const BASELINE_LABELS: Record<BaselineResult['outcome'], string> = {
  known: 'KNOWN',
  expired: 'EXPIRED',
  fixed: 'FIXED',
  'not-judged': 'UNJUDGED',
};

/** A label at the start of a sentence or a title: "No verdict". */
export const sentenceCase = (label: string): string => `${label.charAt(0).toUpperCase()}${label.slice(1)}`;
