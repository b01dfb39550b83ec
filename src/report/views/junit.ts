import { diagnosisLines } from './diagnosis-text.js';
import { xml, type Xml } from './escape/xml.js';
import { failingChecks, failureLines, skipReason } from './failure-text.js';
import type { BaselineResult, Report, RequirementResult } from '../model/types.js';

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

/** What a merge-request test view shows under a failure: the failed checks, then the likely cause and its fix. */
function failureDetail(report: Report, result: RequirementResult): string {
  const checks = failingChecks(result).map((check) => failureLines(report, result, check).join('\n'));
  const causes = report.diagnoses.map((diagnosis) => diagnosisLines(diagnosis).join('\n'));
  return [...checks, ...causes].join('\n\n');
}

/** The message line with the first diagnosis' cause, so a one-line view still says what to fix. */
function messageWithCause(report: Report, result: RequirementResult): string {
  const cause = report.diagnoses[0];
  return cause ? `${outcomeMessage(result)} | likely cause: ${cause.summary}` : outcomeMessage(result);
}

function testcase(report: Report, result: RequirementResult, waived: BaselineResult | undefined): Xml {
  const open = xml`    <testcase classname="${result.family}" name="${`${result.id} (${result.level}): ${result.title}`}">`;
  if (waived) {
    // A known failure the gate lets through is shown as skipped, with why, so the view agrees with the exit code.
    const reason = `known failure waived by the baseline until ${waived.expires} (${waived.owner}): ${waived.reason}`;
    return xml`${open}\n      <skipped message="${reason}"/>\n      <system-out>${failureDetail(report, result)}</system-out>\n    </testcase>`;
  }
  switch (result.verdict) {
    case 'fail':
      return xml`${open}\n      <failure message="${messageWithCause(report, result)}" type="fail">${failureDetail(report, result)}</failure>\n    </testcase>`;
    case 'flaky':
    case 'error':
      return xml`${open}\n      <error message="${messageWithCause(report, result)}" type="error">${failureDetail(report, result)}</error>\n    </testcase>`;
    case 'skip':
      return xml`${open}\n      <skipped message="${skipReason(result)}"/>\n    </testcase>`;
    default: {
      const notes = result.checks
        .map((check) => `${check.verdict.toUpperCase()} ${check.description}${check.actual ? `: ${check.actual}` : ''}`)
        .join('\n');
      return xml`${open}\n      <system-out>${`${result.verdict.toUpperCase()}\n${notes}`}</system-out>\n    </testcase>`;
    }
  }
}

/** One testcase per requirement; skips are <skipped>, never shown green, and so are the failures a baseline waives. */
export function renderJunit(report: Report): string {
  const waived = new Map(
    (report.baseline?.entries ?? []).filter((entry) => entry.outcome === 'known').map((entry) => [entry.requirement, entry]),
  );
  const cases = report.requirements.map((result) => ({ result, waived: waived.get(result.id) }));
  const count = (verdict: string): number => cases.filter(({ result, waived }) => !waived && result.verdict === verdict).length;
  const failures = count('fail');
  const errors = count('error') + count('flaky');
  const skipped = count('skip') + cases.filter(({ waived }) => waived).length;
  const totals = xml`tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}"`;
  const seconds = (report.durationMs / 1000).toFixed(3);
  const testcases = cases.map(({ result, waived }) => xml`${testcase(report, result, waived)}\n`);
  return xml`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="ticketing-conformance" ${totals} time="${seconds}">
  <testsuite name="${report.target.baseUrl}" ${totals} time="${seconds}" timestamp="${report.startedAt}">
${testcases}  </testsuite>
</testsuites>
`.toString();
}
