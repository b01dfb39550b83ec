import { baselineLines } from './baseline-text.js';
import { countsLine, failingChecks, failureLines } from './failure-text.js';
import type { Report, Verdict } from './types.js';

const LABEL: Record<Verdict, string> = { pass: 'PASS ', fail: 'FAIL ', warn: 'WARN ', info: 'INFO ', skip: 'SKIP ', error: 'ERROR' };

export function renderTerminal(report: Report, writtenFiles: string[]): string {
  const lines: string[] = [];
  const idWidth = Math.max(...report.requirements.map((result) => result.id.length));
  let family = '';
  for (const result of report.requirements) {
    if (result.family !== family) {
      family = result.family;
      lines.push('', family);
    }
    lines.push(`  ${LABEL[result.verdict]}  ${result.level.padEnd(6)} ${result.id.padEnd(idWidth)}  ${result.title}`);
  }

  const failing = report.requirements.filter((result) => ['fail', 'warn', 'error'].includes(result.verdict));
  if (failing.length > 0) {
    lines.push('', 'Failures');
    for (const result of failing) {
      for (const check of failingChecks(result)) lines.push('', ...failureLines(result, check));
    }
  }
  for (const diagnosis of report.diagnoses) {
    lines.push(
      '',
      `Diagnosis (${diagnosis.party}, ${diagnosis.confidence} confidence): ${diagnosis.summary}`,
      `  Evidence: ${diagnosis.evidence}`,
    );
    for (const advice of diagnosis.advice) lines.push(`  Fix:      ${advice}`);
  }
  for (const error of report.errors) lines.push('', `${error.code}: ${error.message}. ${error.hint}`);
  const baseline = baselineLines(report);
  if (baseline.length > 0) lines.push('', ...baseline);

  lines.push('', `Verdict: ${report.summary}`);
  if (writtenFiles.length > 0) lines.push(`Reports: ${writtenFiles.join(', ')}`);
  lines.push(
    `${report.totals.warn} warn, ${report.totals.info} info, ${report.totals.error} error; ${report.requests.sent} requests in ${report.durationMs} ms`,
  );
  lines.push(countsLine(report.totals));
  return lines.join('\n');
}
