import { baselineLines } from './baseline-text.js';
import { markdownCodeBlock, markdownText } from './escape/markdown.js';
import {
  failingChecks,
  failureLines,
  outcomeLine,
  profileHeading,
  skipReason,
  splitByProfile,
  unreachedRun,
  WARNINGS_HEADING,
} from './failure-text.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';
import type { Report, RequirementResult } from '../model/types.js';
import { sliceGrid } from '../model/slices.js';
import { VERDICT_WORDS } from './vocabulary.js';

/** The run's warnings, then each diagnosis with its evidence, advice and configuration lines, as quotes. */
function noticeLines(report: Report): string[] {
  const lines = (report.warnings ?? []).flatMap((warning) => [`> **Warning** (${warning.code}): ${markdownText(warning.message)}`, '']);
  for (const diagnosis of report.diagnoses) {
    lines.push(`> **Diagnosis** (${diagnosis.party}, ${diagnosis.confidence} confidence): ${markdownText(diagnosis.summary)}`, '>');
    // Evidence the summary above already quotes is not told twice.
    if (!report.summary.includes(diagnosis.evidence)) lines.push(`> Evidence: ${markdownText(diagnosis.evidence)}`, '>');
    for (const advice of diagnosis.advice) lines.push(`> - ${markdownText(advice)}`);
    for (const snippet of diagnosis.snippets ?? [])
      lines.push('>', `> ${markdownText(snippet.label)}:`, '>', ...markdownCodeBlock(snippet.lines).map((line) => `> ${line}`));
    lines.push('');
  }
  return lines;
}

/** Each requirement's verdict for each status and language, when the run judged several. */
function gridLines(report: Report): string[] {
  const grid = sliceGrid(report);
  if (grid.rows.length === 0) return [];
  return [
    '',
    '## By status and language',
    '',
    `| Requirement | ${grid.columns.join(' | ')} |`,
    `|---|${grid.columns.map(() => '---|').join('')}`,
    ...grid.rows.map(
      ({ id, cells }) => `| ${markdownText(id)} | ${cells.map((verdict) => (verdict ? VERDICT_WORDS[verdict].label : '-')).join(' | ')} |`,
    ),
  ];
}

/** What the INFO requirements recorded, where the document leaves the behaviour open. */
function observationLines(document: RequirementResult[]): string[] {
  const observations = document.filter((result) => result.level === 'INFO');
  if (observations.length === 0) return [];
  return [
    '',
    '## Observations (the document leaves these open)',
    '',
    ...observations.flatMap((result) =>
      result.checks.map(
        (check) => `- **${markdownText(result.id)}**: ${markdownText(check.description)}: ${markdownText(check.actual ?? check.verdict)}`,
      ),
    ),
  ];
}

const requirementTable = (results: RequirementResult[]): string[] => [
  '| Verdict | Level | Requirement | Title |',
  '|---|---|---|---|',
  ...results.map(
    (result) => `| ${VERDICT_WORDS[result.verdict].label} | ${result.level} | ${markdownText(result.id)} | ${markdownText(result.title)} |`,
  ),
];

const skipLines = (results: RequirementResult[]): string[] =>
  results
    .filter((result) => result.verdict === 'skip')
    .map((result) => `- **${markdownText(result.id)}**: ${markdownText(skipReason(result))}`);

export function renderMarkdown(report: Report): string {
  const lines = [
    '# Ticketing API conformance report',
    '',
    `**${markdownText(report.summary)}**`,
    '',
    `- Target: ${markdownText(report.target.baseUrl)}${report.target.embeddedReference ? ' (embedded reference server)' : ''}`,
    `- Suite: ${markdownText(`${report.suite.name} ${report.suite.version}; started ${report.startedAt}; ${report.durationMs} ms; ${report.requests.sent} requests`)}`,
    `- Totals: ${outcomeLine(report)}`,
    '',
    ...noticeLines(report),
  ];
  const unreached = unreachedRun(report);
  const { profile } = splitByProfile(report);
  const document = splitByProfile(report).document.filter((result) => !unreached?.requirements.includes(result.id));
  const outcomes = new Map(outcomesOf(report).map(({ result, outcome }) => [result.id, outcome]));
  const details = (results: RequirementResult[]): string[] =>
    results.flatMap((result) => failingChecks(result).flatMap((check) => ['', ...markdownCodeBlock(failureLines(report, result, check))]));
  const having = (results: RequirementResult[], ...wanted: Outcome[]): RequirementResult[] =>
    results.filter((result) => wanted.includes(outcomes.get(result.id) ?? 'passed'));
  // What fails the run, then what it lets through, under headings of their own: a warning is not a failure.
  const failures = (results: RequirementResult[], level: string): string[] => {
    const failed = details(having(results, 'failed', 'unjudged'));
    const warned = details(having(results, 'warned'));
    return [
      ...(failed.length > 0 ? ['', `${level} Failures`, ...failed] : []),
      ...(warned.length > 0 ? ['', `${level} ${WARNINGS_HEADING}`, ...warned] : []),
    ];
  };
  if (unreached) {
    lines.push(
      `**${unreached.requirements.length} requirements not judged, because ${markdownText(unreached.cause)}:** ${unreached.requirements.map(markdownText).join(', ')}`,
    );
  } else lines.push(...requirementTable(document));
  lines.push(...gridLines(report));
  const baseline = baselineLines(report);
  if (baseline.length > 0)
    lines.push('', '## Known failures', '', ...markdownCodeBlock(baseline), ...details(having(report.requirements, 'waived')));
  lines.push(...failures(document, '##'));
  const skipped = skipLines(document);
  if (skipped.length > 0) lines.push('', '## Not judged (skipped)', '', ...skipped);
  lines.push(...observationLines(document));
  if (report.profile) {
    lines.push(
      '',
      `## ${markdownText(profileHeading(report.profile))}`,
      '',
      `**${markdownText(report.profile.summary)}**`,
      '',
      ...requirementTable(profile),
    );
    lines.push(...failures(profile, '###'));
    const unjudged = skipLines(profile);
    if (unjudged.length > 0) lines.push('', ...unjudged);
  }
  return `${lines.join('\n')}\n`;
}
