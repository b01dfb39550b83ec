import type { CTRFReport, Test, TestStatus } from 'ctrf';
import { diagnosisLines } from './diagnosis-text.js';
import { failingChecks, failureLines, skipReason, testName, WARNING_NOTE } from './failure-text.js';
import { outcomesOf, type Outcome } from '../model/outcomes.js';
import type { Report, RequirementResult } from '../model/types.js';

/**
 * The outcomes the gate reads as CTRF's statuses. CTRF has no warning: its "other" is the catch-all for what is neither
 * passed, failed nor skipped, so a SHOULD or CLIENT not met without --strict is "other", told apart by its rawStatus
 * "warn", as INFO observations ("info") and what could not be judged ("error") are. A waived failure is skipped.
 */
const STATUS: Record<Outcome, TestStatus> = {
  passed: 'passed',
  failed: 'failed',
  warned: 'other',
  waived: 'skipped',
  skipped: 'skipped',
  observed: 'other',
  unjudged: 'other',
};

/**
 * A requirement's own time: what the target took to answer the requests its checks judged, each counted once. A
 * requirement judged on no answer (skipped before any request) took none.
 */
function durationOf(report: Report, result: RequirementResult): number {
  const keys = new Set(result.checks.flatMap((check) => (check.exchange === undefined ? [] : [check.exchange])));
  return [...keys].reduce((sum, key) => sum + (report.exchanges[key]?.response.durationMs ?? 0), 0);
}

function message(report: Report, result: RequirementResult, waiver: string | undefined): string | undefined {
  if (waiver) return waiver;
  if (result.verdict === 'skip') return skipReason(result);
  const failing = failingChecks(result)[0];
  if (!failing)
    return result.verdict === 'info' ? result.checks.map((check) => `${check.description}: ${check.actual ?? ''}`).join('; ') : undefined;
  const cause = report.diagnoses[0] ? ` | likely cause: ${report.diagnoses[0].summary}` : '';
  return `${failing.description}: ${failing.error ? `${failing.error.code}: ${failing.error.message}` : `expected ${failing.expected ?? '?'}; actual ${failing.actual ?? '?'}`}${cause}`;
}

function test(report: Report, result: RequirementResult, outcome: Outcome, waiver: string | undefined): Test {
  const failing = failingChecks(result);
  const trace = [
    ...failing.map((check) => failureLines(report, result, check).join('\n')),
    ...(failing.length > 0 ? report.diagnoses.map((diagnosis) => diagnosisLines(diagnosis).join('\n')) : []),
  ].join('\n\n');
  const found = message(report, result, waiver);
  const text = outcome === 'warned' ? `${WARNING_NOTE}: ${found ?? result.id}` : found;
  return {
    name: testName(result),
    status: STATUS[outcome],
    rawStatus: result.verdict,
    duration: durationOf(report, result),
    suite: [report.target.baseUrl, result.family],
    ...(text ? { message: text } : {}),
    ...(trace ? { trace } : {}),
    tags: [result.level, result.family],
    type: 'conformance',
    ...(result.verdict === 'flaky' ? { flaky: true, retries: Math.max(0, (result.repeat?.runs ?? 1) - 1) } : {}),
    extra: { requirement: result.id, level: result.level, outcome, quote: result.quote, ...(result.party ? { party: result.party } : {}) },
  };
}

/** The report in the Common Test Report Format (ctrf.json), the test-results file CI summaries read; same verdicts as the gate. */
export function renderCtrf(report: Report): string {
  const start = Date.parse(report.startedAt);
  const stop = Date.parse(report.finishedAt);
  const waivers = new Map(
    (report.baseline?.entries ?? [])
      .filter((entry) => entry.outcome === 'known')
      .map((entry) => [entry.requirement, `known failure waived by the baseline until ${entry.expires} (${entry.owner}): ${entry.reason}`]),
  );
  const tests = outcomesOf(report).map(({ result, outcome }) => test(report, result, outcome, waivers.get(result.id)));
  const count = (status: TestStatus): number => tests.filter((entry) => entry.status === status).length;
  const ctrf: CTRFReport = {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    timestamp: report.finishedAt,
    generatedBy: `${report.suite.name} ${report.suite.version}`,
    results: {
      tool: { name: report.suite.name, version: report.suite.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        flaky: tests.filter((entry) => entry.flaky).length,
        suites: 1,
        start,
        stop,
        duration: report.durationMs,
      },
      tests,
      environment: {
        reportName: `Conformance of ${report.target.baseUrl}`,
        appName: report.target.baseUrl,
        testEnvironment: report.target.embeddedReference ? 'embedded reference server' : report.target.baseUrl,
        healthy: report.exitCode === 0,
        extra: { verdict: report.verdict, exitCode: report.exitCode, strict: report.options.strict },
      },
      extra: { verdict: report.verdict, exitCode: report.exitCode, summary: report.summary, errors: report.errors },
    },
  };
  return `${JSON.stringify(ctrf, null, 2)}\n`;
}
