import { diagnosisLines } from './diagnosis-text.js';
import { xml, type Xml } from './escape/xml.js';
import { failingChecks, failureLines, skipReason, testName, WARNING_NOTE } from './failure-text.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';
import type { BaselineResult, Report, RequirementResult } from '../model/types.js';
import { VERDICT_WORDS } from './vocabulary.js';

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
 * What the gate lets through is written as <skipped>, which GitLab's test report and Jenkins' junit step list apart and
 * never show red: an INFO observation (type="info"), a SHOULD or CLIENT not met without --strict (type="warn") and a
 * failure the baseline waives, each with what was seen. What could not be judged is an <error>, as the exit code 2 is.
 */
function testcase(report: Report, result: RequirementResult, outcome: Outcome, waiver: BaselineResult | undefined): Xml {
  const open = xml`    <testcase classname="${result.family}" name="${testName(result)}">`;
  switch (outcome) {
    case 'failed':
      return xml`${open}\n      <failure message="${messageWithCause(report, result)}" type="${result.verdict}">${failureDetail(report, result)}</failure>\n    </testcase>`;
    case 'warned': {
      const warning = `${WARNING_NOTE}: ${outcomeMessage(result)}`;
      return xml`${open}\n      <skipped message="${warning}" type="warn"/>\n      <system-out>${failureDetail(report, result)}</system-out>\n    </testcase>`;
    }
    case 'waived': {
      const reason = waiver
        ? `known failure waived by the baseline until ${waiver.expires} (${waiver.owner}): ${waiver.reason}`
        : 'known failure waived by the baseline';
      return xml`${open}\n      <skipped message="${reason}"/>\n      <system-out>${failureDetail(report, result)}</system-out>\n    </testcase>`;
    }
    case 'skipped':
      return xml`${open}\n      <skipped message="${skipReason(result)}"/>\n    </testcase>`;
    case 'observed':
      return xml`${open}\n      <skipped message="${observation(result)}" type="info"/>\n    </testcase>`;
    case 'unjudged':
      return xml`${open}\n      <error message="${messageWithCause(report, result)}" type="error">${failureDetail(report, result)}</error>\n    </testcase>`;
    case 'passed': {
      const notes = result.checks.map(
        (check) => `${VERDICT_WORDS[check.verdict].label} ${check.description}${check.actual ? `: ${check.actual}` : ''}`,
      );
      return xml`${open}\n      <system-out>${[VERDICT_WORDS.pass.label, ...notes].join('\n')}</system-out>\n    </testcase>`;
    }
  }
}

/** One testcase per requirement, counted by the outcomes the gate reads (report/model/outcomes.ts). */
export function renderJunit(report: Report): string {
  const waivers = new Map(
    (report.baseline?.entries ?? []).filter((entry) => entry.outcome === 'known').map((entry) => [entry.requirement, entry]),
  );
  const cases = outcomesOf(report);
  const counted = (...outcomes: Outcome[]): number => cases.filter(({ outcome }) => outcomes.includes(outcome)).length;
  const totals = xml`tests="${cases.length}" failures="${counted('failed')}" errors="${counted('unjudged')}" skipped="${counted('warned', 'waived', 'skipped', 'observed')}"`;
  const seconds = (report.durationMs / 1000).toFixed(3);
  const testcases = cases.map(({ result, outcome }) => xml`${testcase(report, result, outcome, waivers.get(result.id))}\n`);
  return xml`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="ticketing-conformance" ${totals} time="${seconds}">
  <testsuite name="${report.target.baseUrl}" ${totals} time="${seconds}" timestamp="${report.startedAt}">
${testcases}  </testsuite>
</testsuites>
`.toString();
}
