import { paint } from './colour.js';
import { LABEL_WIDTH, VERDICT_WORDS } from './vocabulary.js';
import { terminalLine } from './escape/terminal.js';
import { diagnosisLines } from './diagnosis-text.js';
import { baselineLines } from './baseline-text.js';
import {
  closingLine,
  errorGroupLines,
  errorGroups,
  failureGroupLines,
  failureGroups,
  foldedSkips,
  unreachedRun,
  profileHeading,
  skipReason,
  splitByProfile,
  WARNINGS_HEADING,
} from './failure-text.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';
import { verdictLine } from './next-step.js';
import type { Report, RequirementResult, Verdict } from '../model/types.js';
import { wrapAtWords } from './wrap.js';
import { sliceSummaries, sliceSummaryLine } from '../model/slices.js';

export function warningLine(warning: { code: string; message: string }): string {
  return terminalLine(`WARNING ${warning.code}: ${warning.message}`);
}

export interface TerminalOptions {
  colour: boolean;
  /** Adds every request made, redacted, with the status it got. */
  verbose: boolean;
  /** The terminal's width, when the output goes to one: the verdict line is wrapped at words within it. */
  width?: number;
}

/** A line per requirement under its family's heading, its index kept in `labelled` for its verdict's label. */
function pushRequirementLines(lines: string[], labelled: Map<number, Verdict>, results: RequirementResult[], idWidth: number): void {
  let family = '';
  for (const result of results) {
    if (result.family !== family) {
      family = result.family;
      lines.push('', family);
    }
    const agreement = result.repeat && result.verdict === 'flaky' ? ` (${result.repeat.agreed} of ${result.repeat.runs} runs agreed)` : '';
    labelled.set(lines.length, result.verdict);
    lines.push(`${result.level.padEnd(6)} ${result.id.padEnd(idWidth)}  ${result.title}${agreement}`);
    if (result.verdict === 'skip') lines.push(`         ${''.padEnd(6)} ${''.padEnd(idWidth)}  skipped: ${skipReason(result)}`);
  }
}

/** Numbered as Schemathesis numbers its failures; checks that got the same answer are one entry. */
function failureDetailLines(report: Report, failing: RequirementResult[]): string[] {
  const lines = failureGroups(failing).flatMap((group, index) => {
    const [heading = '', ...rest] = failureGroupLines(report, group);
    return ['', `${index + 1}. ${heading}`, ...rest];
  });
  for (const group of errorGroups(failing)) lines.push('', ...errorGroupLines(group));
  return lines;
}

/** What fails the run, what it lets through (a warning, a known failure), each under its own heading. */
function failureSectionLines(report: Report, results: RequirementResult[], outcomes: ReadonlyMap<string, Outcome>): string[] {
  const having =
    (...wanted: Outcome[]) =>
    (result: RequirementResult): boolean =>
      wanted.includes(outcomes.get(result.id) ?? 'passed');
  const sections: [string, RequirementResult[]][] = [
    ['Failures', results.filter(having('failed', 'unjudged'))],
    [WARNINGS_HEADING, results.filter(having('warned'))],
    ['Known failures, waived by the baseline', results.filter(having('waived'))],
  ];
  return sections.flatMap(([heading, members]) => (members.length === 0 ? [] : ['', heading, ...failureDetailLines(report, members)]));
}

function requestLines(report: Report): string[] {
  return Object.values(report.exchanges).map(({ request, response }) => {
    const auth = request.headers.authorization ?? 'no header';
    return `  ${request.method} ${request.url}  Authorization: ${auth} (${request.credentials})  ->  HTTP ${response.status}`;
  });
}

export function renderTerminal(
  report: Report,
  writtenFiles: string[],
  options: TerminalOptions = { colour: false, verbose: false },
): string {
  const lines: string[] = [];
  // Requirement lines by index: their label is coloured once every line has been made safe.
  const labelled = new Map<number, Verdict>();
  const idWidth = Math.max(...report.requirements.map((result) => result.id.length));
  const requirementLines = (results: RequirementResult[]): void => pushRequirementLines(lines, labelled, results, idWidth);
  const outcomes = new Map(outcomesOf(report).map(({ result, outcome }) => [result.id, outcome]));
  const failureSections = (results: RequirementResult[]): void => {
    lines.push(...failureSectionLines(report, results, outcomes));
  };
  const { document, profile } = splitByProfile(report);
  const unreached = unreachedRun(report);
  const folded = unreached ?? foldedSkips(report);
  const told = document.filter((result) => !folded?.requirements.includes(result.id));
  requirementLines(told);
  if (folded) {
    lines.push('');
    labelled.set(lines.length, unreached ? 'error' : 'skip');
    lines.push(`${folded.requirements.length} requirements not judged, because ${folded.cause}: ${folded.requirements.join(', ')}`);
  }

  const slices = sliceSummaries(report);
  if (slices.length > 0) lines.push('', 'By status and language', ...slices.map((slice) => `  ${sliceSummaryLine(slice)}`));

  failureSections(told);
  for (const diagnosis of report.diagnoses) lines.push('', ...diagnosisLines(diagnosis));
  for (const error of report.errors) lines.push('', `${error.code}: ${error.message}. ${error.hint}`);
  if (report.profile) {
    lines.push('', profileHeading(report.profile));
    requirementLines(profile);
    lines.push('', report.profile.summary);
    failureSections(profile);
  }
  for (const warning of report.warnings ?? []) lines.push('', warningLine(warning));
  const baseline = baselineLines(report);
  if (baseline.length > 0) lines.push('', ...baseline);

  if (options.verbose) lines.push('', 'Requests', ...requestLines(report));
  lines.push(...endLines(report, writtenFiles, outcomes, options.width));
  return lines
    .map((line, index) => {
      const verdict = labelled.get(index);
      if (!verdict) return terminalLine(line);
      const { label, tone } = VERDICT_WORDS[verdict];
      return `  ${paint(tone, label.padEnd(LABEL_WIDTH), options.colour)}  ${terminalLine(line)}`;
    })
    .join('\n');
}

/** The verdict, the files written and the content hash, the requests sent, and the closing line. */
function endLines(report: Report, writtenFiles: string[], outcomes: ReadonlyMap<string, Outcome>, width: number | undefined): string[] {
  const verdict = verdictLine(report);
  // A terminal of no known size (a pseudo-terminal nobody sized reports 0 columns) is not a narrow one.
  const lines = ['', ...(width ? wrapAtWords(verdict, width) : [verdict])];
  if (writtenFiles.length > 0) lines.push(`Reports: ${writtenFiles.join(', ')}`);
  const json = writtenFiles.find((path) => path.endsWith('report.json'));
  // Printed to the log so that verify --expect can tell a replaced report from the one this run wrote.
  if (json && report.integrity?.content) lines.push(`Content hash of ${json}: ${report.integrity.content}`);
  lines.push(`${report.requests.sent} requests sent${rateLimitNote(report)}${failedNote(report, outcomes)}`);
  lines.push(closingLine(report));
  return lines;
}

function rateLimitNote({ requests }: Report): string {
  return requests.rateLimited
    ? ` (${requests.rateLimited} asked to wait: HTTP 429, or 503 with Retry-After; paused ${requests.waitedMs ?? 0} ms)`
    : '';
}

/** Failed counts, beside the MUSTs broken, what --strict makes failures and what failed in some runs only: said, so "failed" never surprises. */
function failedNote(report: Report, outcomes: ReadonlyMap<string, Outcome>): string {
  const failed = report.requirements.filter((result) => outcomes.get(result.id) === 'failed');
  const strict = failed.filter((result) => result.verdict === 'warn').length;
  const flaky = failed.filter((result) => result.verdict === 'flaky').length;
  const parts = [strict ? `${strict} SHOULD or CLIENT not met (--strict)` : '', flaky ? `${flaky} flaky` : ''].filter(Boolean);
  return parts.length > 0 ? `; failed includes ${parts.join(' and ')}` : '';
}
