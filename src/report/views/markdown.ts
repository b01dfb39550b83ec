import { baselineLines } from './baseline-text.js';
import { markdownCodeBlock, markdownText } from './escape/markdown.js';
import { failingChecks, failureLines, outcomeLine, skipReason } from './failure-text.js';
import type { Report } from '../model/types.js';

export function renderMarkdown(report: Report): string {
  const lines = [
    '# Ticketing API conformance report',
    '',
    `**${markdownText(report.summary)}**`,
    '',
    `- Target: ${markdownText(report.target.baseUrl)}${report.target.embeddedReference ? ' (embedded reference server)' : ''}`,
    `- Suite: ${markdownText(`${report.suite.name} ${report.suite.version}; started ${report.startedAt}; ${report.durationMs} ms; ${report.requests.sent} requests`)}`,
    `- Totals: ${outcomeLine(report)}; ${report.totals.warn} warn, ${report.totals.info} info, ${report.totals.error} error`,
    '',
  ];
  for (const warning of report.warnings ?? []) lines.push(`> **Warning** (${warning.code}): ${markdownText(warning.message)}`, '');
  for (const diagnosis of report.diagnoses) {
    lines.push(
      `> **Diagnosis** (${diagnosis.party}, ${diagnosis.confidence} confidence): ${markdownText(diagnosis.summary)}`,
      '>',
      `> Evidence: ${markdownText(diagnosis.evidence)}`,
      '>',
    );
    for (const advice of diagnosis.advice) lines.push(`> - ${markdownText(advice)}`);
    for (const snippet of diagnosis.snippets ?? [])
      lines.push('>', `> ${markdownText(snippet.label)}:`, '>', ...markdownCodeBlock(snippet.lines).map((line) => `> ${line}`));
    lines.push('');
  }
  lines.push('| Verdict | Level | Requirement | Title |', '|---|---|---|---|');
  for (const result of report.requirements) {
    lines.push(`| ${result.verdict.toUpperCase()} | ${result.level} | ${markdownText(result.id)} | ${markdownText(result.title)} |`);
  }
  const baseline = baselineLines(report);
  if (baseline.length > 0) lines.push('', '## Known failures', '', ...markdownCodeBlock(baseline));
  const failing = report.requirements.filter((result) => failingChecks(result).length > 0);
  if (failing.length > 0) {
    lines.push('', '## Failures');
    for (const result of failing) {
      for (const check of failingChecks(result)) lines.push('', ...markdownCodeBlock(failureLines(report, result, check)));
    }
  }
  const skipped = report.requirements.filter((result) => result.verdict === 'skip');
  if (skipped.length > 0) {
    lines.push('', '## Not judged (skipped)', '');
    for (const result of skipped) lines.push(`- **${markdownText(result.id)}**: ${markdownText(skipReason(result))}`);
  }
  const observations = report.requirements.filter((result) => result.level === 'INFO');
  if (observations.length > 0) {
    lines.push('', '## Observations (the document leaves these open)', '');
    for (const result of observations) {
      for (const check of result.checks)
        lines.push(`- **${markdownText(result.id)}**: ${markdownText(check.description)}: ${markdownText(check.actual ?? check.verdict)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
