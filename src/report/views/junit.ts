import { diagnosisLines } from './diagnosis-text.js';
import { xml, type Xml } from './escape/xml.js';
import { failingChecks, failureLines, skipReason, testName } from './failure-text.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';
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

/** What an INFO observation saw, for the message of its <skipped>: the document sets no rule to judge it by. */
function observation(result: RequirementResult): string {
  const seen = result.checks.map((check) => `${check.description}${check.actual ? `: ${check.actual}` : ''}`).join('; ');
  return `INFO observation, no rule to judge: ${seen}`;
}

/**
 * JUnit has no fourth outcome: "other" is an <error> for a requirement that could not be judged and a <skipped
 * type="info"> for an INFO observation, so CI tools never count an observation as a pass or a failure.
 */
function testcase(report: Report, result: RequirementResult, outcome: Outcome, waived: BaselineResult | undefined): Xml {
  const open = xml`    <testcase classname="${result.family}" name="${testName(result)}">`;
  if (waived) {
    // A known failure the gate lets through is shown as skipped, with why, so the view agrees with the exit code.
    const reason = `known failure waived by the baseline until ${waived.expires} (${waived.owner}): ${waived.reason}`;
    return xml`${open}\n      <skipped message="${reason}"/>\n      <system-out>${failureDetail(report, result)}</system-out>\n    </testcase>`;
  }
  switch (outcome) {
    case 'failed':
      return xml`${open}\n      <failure message="${messageWithCause(report, result)}" type="${result.verdict}">${failureDetail(report, result)}</failure>\n    </testcase>`;
    case 'skipped':
      return xml`${open}\n      <skipped message="${skipReason(result)}"/>\n    </testcase>`;
    case 'other':
      return result.verdict === 'info'
        ? xml`${open}\n      <skipped message="${observation(result)}" type="info"/>\n    </testcase>`
        : xml`${open}\n      <error message="${messageWithCause(report, result)}" type="error">${failureDetail(report, result)}</error>\n    </testcase>`;
    case 'passed': {
      const notes = result.checks.map(
        (check) => `${check.verdict.toUpperCase()} ${check.description}${check.actual ? `: ${check.actual}` : ''}`,
      );
      return xml`${open}\n      <system-out>${['PASS', ...notes].join('\n')}</system-out>\n    </testcase>`;
    }
  }
}

/** One testcase per requirement, counted by the outcomes every CI file shares (report/model/outcomes.ts). */
export function renderJunit(report: Report): string {
  const waived = new Map(
    (report.baseline?.entries ?? []).filter((entry) => entry.outcome === 'known').map((entry) => [entry.requirement, entry]),
  );
  const cases = outcomesOf(report);
  const failures = cases.filter(({ outcome }) => outcome === 'failed').length;
  const errors = cases.filter(({ outcome, result }) => outcome === 'other' && result.verdict !== 'info').length;
  const skipped = cases.filter(({ outcome, result }) => outcome === 'skipped' || result.verdict === 'info').length;
  const totals = xml`tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}"`;
  const seconds = (report.durationMs / 1000).toFixed(3);
  const testcases = cases.map(({ result, outcome }) => xml`${testcase(report, result, outcome, waived.get(result.id))}\n`);
  return xml`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="ticketing-conformance" ${totals} time="${seconds}">
  <testsuite name="${report.target.baseUrl}" ${totals} time="${seconds}" timestamp="${report.startedAt}">
${testcases}  </testsuite>
</testsuites>
`.toString();
}
