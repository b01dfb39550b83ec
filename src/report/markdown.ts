import { baselineLines } from './baseline-text.js';
import { countsLine, failingChecks, failureLines, skipReason } from './failure-text.js';
import type { Report } from './types.js';

export const escapeCell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderMarkdown(report: Report): string {
  const lines = [
    '# Ticketing API conformance report',
    '',
    `**${report.summary}**`,
    '',
    `- Target: ${report.target.baseUrl}${report.target.embeddedReference ? ' (embedded reference server)' : ''}`,
    `- Suite: ${report.suite.name} ${report.suite.version}; started ${report.startedAt}; ${report.durationMs} ms; ${report.requests.sent} requests`,
    `- Totals: ${countsLine(report.totals)}; ${report.totals.warn} warn, ${report.totals.info} info, ${report.totals.error} error`,
    '',
  ];
  for (const warning of report.warnings ?? []) lines.push(`> **Warning** (${warning.code}): ${warning.message}`, '');
  for (const diagnosis of report.diagnoses) {
    lines.push(
      `> **Diagnosis** (${diagnosis.party}, ${diagnosis.confidence} confidence): ${diagnosis.summary}`,
      '>',
      `> Evidence: ${diagnosis.evidence}`,
      '>',
    );
    for (const advice of diagnosis.advice) lines.push(`> - ${advice}`);
    for (const snippet of diagnosis.snippets ?? [])
      lines.push('>', `> ${snippet.label}:`, '>', '> ```', ...snippet.lines.map((line) => `> ${line}`), '> ```');
    lines.push('');
  }
  lines.push('| Verdict | Level | Requirement | Title |', '|---|---|---|---|');
  for (const result of report.requirements) {
    lines.push(`| ${result.verdict.toUpperCase()} | ${result.level} | ${result.id} | ${escapeCell(result.title)} |`);
  }
  const baseline = baselineLines(report);
  if (baseline.length > 0) lines.push('', '## Known failures', '', '```', ...baseline, '```');
  const failing = report.requirements.filter((result) => failingChecks(result).length > 0);
  if (failing.length > 0) {
    lines.push('', '## Failures');
    for (const result of failing) {
      for (const check of failingChecks(result)) lines.push('', '```', ...failureLines(result, check), '```');
    }
  }
  const skipped = report.requirements.filter((result) => result.verdict === 'skip');
  if (skipped.length > 0) {
    lines.push('', '## Not judged (skipped)', '');
    for (const result of skipped) lines.push(`- **${result.id}**: ${escapeCell(skipReason(result))}`);
  }
  const observations = report.requirements.filter((result) => result.level === 'INFO');
  if (observations.length > 0) {
    lines.push('', '## Observations (the document leaves these open)', '');
    for (const result of observations) {
      for (const check of result.checks)
        lines.push(`- **${result.id}**: ${escapeCell(check.description)}: ${escapeCell(check.actual ?? check.verdict)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
