import { failingChecks, failureLines } from './failure-text.js';
import type { Report, RequirementResult } from './types.js';

export const escapeXml = (text: string): string =>
  text
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

const MESSAGE_CHARS = 500;

/** The one line CI tools show for a failing testcase: what was checked, expected and received. */
function outcomeMessage(result: RequirementResult): string {
  const check = failingChecks(result)[0];
  if (!check) return `${result.id} (${result.level}) ${result.verdict}`;
  const detail = check.error
    ? `${check.error.code}: ${check.error.message}`
    : `expected ${check.expected ?? '?'}; actual ${check.actual ?? '?'}`;
  const message = `${result.id} (${result.level}): ${check.description}: ${detail}`;
  return message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS - 1)}…` : message;
}

function testcase(result: RequirementResult): string {
  const open = `    <testcase classname="${escapeXml(result.family)}" name="${escapeXml(`${result.id} (${result.level}): ${result.title}`)}">`;
  const detail = failingChecks(result)
    .map((check) => failureLines(result, check).join('\n'))
    .join('\n\n');
  switch (result.verdict) {
    case 'fail':
      return `${open}\n      <failure message="${escapeXml(outcomeMessage(result))}" type="fail">${escapeXml(detail)}</failure>\n    </testcase>`;
    case 'flaky':
    case 'error':
      return `${open}\n      <error message="${escapeXml(outcomeMessage(result))}" type="error">${escapeXml(detail)}</error>\n    </testcase>`;
    case 'skip':
      return `${open}\n      <skipped message="${escapeXml(result.checks[0]?.description ?? 'skipped')}"/>\n    </testcase>`;
    default: {
      const notes = result.checks
        .map((check) => `${check.verdict.toUpperCase()} ${check.description}${check.actual ? `: ${check.actual}` : ''}`)
        .join('\n');
      return `${open}\n      <system-out>${escapeXml(`${result.verdict.toUpperCase()}\n${notes}`)}</system-out>\n    </testcase>`;
    }
  }
}

/** One testcase per requirement; skips are <skipped>, never shown green. */
export function renderJunit(report: Report): string {
  const count = (verdict: string): number => report.requirements.filter((result) => result.verdict === verdict).length;
  const seconds = (report.durationMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ticketing-conformance" tests="${report.requirements.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${count('skip')}" time="${seconds}">`,
    `  <testsuite name="${escapeXml(report.target.baseUrl)}" tests="${report.requirements.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${count('skip')}" time="${seconds}" timestamp="${report.startedAt}">`,
    ...report.requirements.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
