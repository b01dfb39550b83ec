import { isServed } from '../../classify/types.js';
import { THROUGH_FRONT_CONTROLLER } from '../../exchange/exchange.js';
import { implementersPage, isRequirementId } from '../../requirements/catalog.js';
import type { RecordedCheck } from '../../judge/scenario-result.js';
import { outcomeCounts, type Outcome } from '../model/outcomes.js';
import { judgedSlicesLabel } from '../model/slices.js';
import { countedOutcome, countedVerdict } from './vocabulary.js';
import { exchangeOf, type Report, type RequirementResult, type Verdict } from '../model/types.js';

/**
 * The document's requirements, and apart from them the profile's (level CLIENT, with --profile), which every view shows
 * in a section of its own: what the vendor's client would make of the server is not what the document requires.
 */
export function splitByProfile(report: Pick<Report, 'requirements'>): { document: RequirementResult[]; profile: RequirementResult[] } {
  return {
    document: report.requirements.filter((result) => result.level !== 'CLIENT'),
    profile: report.requirements.filter((result) => result.level === 'CLIENT'),
  };
}

/** The heading of the profile's section: whose code its requirements quote. */
export function profileHeading(profile: NonNullable<Report['profile']>): string {
  const { repository, version, commit } = profile.client;
  return `The official client: what ${repository} ${version} (${commit.slice(0, 7)}) would make of this server (--profile ${profile.name})`;
}

/** A requirement as a CI file names its test: with the statuses and languages it was judged for, when the run had several. */
export function testName(result: RequirementResult): string {
  const slices = judgedSlicesLabel(result);
  return `${result.id} (${result.level}): ${result.title}${slices === undefined ? '' : ` [${slices}]`}`;
}

/** The h2spec order: requirement and its words, Expected, Actual, the request made, a repro. */
export function failureLines(report: Pick<Report, 'exchanges'>, result: RequirementResult, check: RecordedCheck): string[] {
  const lines = [`${result.id} (${result.level})  "${result.quote}"`, `  Check:    ${check.description}`];
  if (check.error) {
    lines.push(`  Error:    ${check.error.code}: ${check.error.message}`, `  Fix:      ${check.error.hint}`);
  } else {
    lines.push(`  Expected: ${check.expected ?? ''}`, `  Actual:   ${check.actual ?? ''}`);
  }
  const exchange = exchangeOf(report, check);
  if (exchange) {
    const { request } = exchange;
    const auth = request.headers.authorization;
    lines.push(
      `  Request:  ${request.method} ${request.url}${auth ? `  Authorization: ${auth}` : '  (no Authorization header)'}`,
      `  Repro:    ${exchange.repro}`,
    );
  }
  if (result.party) lines.push(`  Fault:    most likely the ${result.party}`);
  lines.push(...seeLine(result, '  See:      '));
  return lines;
}

/** The requirement's page for implementers, for a requirement of this suite's catalog (a report read from a file may name others). */
function seeLine(result: RequirementResult, prefix: string): string[] {
  return isRequirementId(result.id) ? [`${prefix}${implementersPage(result.id)}`] : [];
}

/** How every view words a rule broken that the gate lets through: a SHOULD or CLIENT not met, without --strict. */
export const WARNING_NOTE = 'warning, not a failure (it fails the run only with --strict)';

/** The heading the terminal and report.md put such warnings under, apart from the failures. */
export const WARNINGS_HEADING = 'Warnings: not failures, each fails the run only with --strict';

export function failingChecks(result: RequirementResult): RecordedCheck[] {
  return result.checks.filter((check) => check.verdict === 'fail' || check.verdict === 'error');
}

/** The closing line of a doctor's examination: its verdict totals. */
export function countsLine(totals: Partial<Record<Verdict, number>>): string {
  const always = (['pass', 'fail', 'skip'] as const).map((verdict) => countedVerdict(verdict, totals[verdict] ?? 0));
  const other = (['error', 'flaky'] as const).flatMap((verdict) => (totals[verdict] ? [countedVerdict(verdict, totals[verdict])] : []));
  return [...always, ...other].join(', ');
}

/**
 * The closing line of a run, in the outcomes the gate and every CI file count by (report/model/outcomes.ts): passed,
 * failed, skipped (a failure the baseline waives among them), then what is neither, so the line reads in words: rules
 * broken that do not fail the run (warnings), INFO observations and what could not be judged.
 */
export function outcomeLine(report: Pick<Report, 'requirements' | 'baseline' | 'options'>): string {
  return outcomeCountsLine(outcomeCounts(report));
}

/** The counts line of outcomes already counted: a matrix's target, or all its targets together. */
export function outcomeCountsLine(counts: Record<Outcome, number>): string {
  const always = [
    countedOutcome('passed', counts.passed),
    countedOutcome('failed', counts.failed),
    countedOutcome('skipped', counts.skipped + counts.waived),
  ];
  const other = (['warned', 'observed', 'unjudged'] as const).flatMap((outcome) =>
    counts[outcome] ? [countedOutcome(outcome, counts[outcome])] : [],
  );
  return [...always, ...other].join(', ');
}

/** The last line of a run's terminal output: its outcomes, then the time the run took. */
export function closingLine(report: Pick<Report, 'requirements' | 'baseline' | 'options' | 'durationMs'>): string {
  return `${outcomeLine(report)} in ${(report.durationMs / 1000).toFixed(1)} s`;
}

export interface ErrorGroup {
  error: NonNullable<RecordedCheck['error']>;
  requirements: string[];
}

/** Suite errors that stopped many requirements for one cause (an unreachable target, say), told once each. */
export function errorGroups(results: RequirementResult[]): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  for (const result of results) {
    for (const check of result.checks) {
      if (check.verdict !== 'error' || !check.error) continue;
      const key = `${check.error.code} ${check.error.message}`;
      const group = groups.get(key) ?? { error: check.error, requirements: [] };
      if (!group.requirements.includes(result.id)) group.requirements.push(result.id);
      groups.set(key, group);
    }
  }
  return [...groups.values()];
}

export function errorGroupLines({ error, requirements }: ErrorGroup): string[] {
  return [
    `Could not judge ${requirements.length} requirement(s): ${requirements.join(', ')}`,
    `  Error:    ${error.code}: ${error.message}`,
    `  Fix:      ${error.hint}`,
    `  Fault:    most likely the ${error.party}`,
  ];
}

/** Why a requirement was not judged: the reason its scenario gave when it skipped. */
export function skipReason(result: RequirementResult): string {
  const reasons = [...new Set(result.checks.filter((check) => check.verdict === 'skip').map((check) => check.description))];
  return reasons.join('; ') || 'skipped';
}

/** Failing checks that got the same answer, told once: the requirements and checks it failed, the answer once. */
export interface FailureGroup {
  actual: string;
  entries: { result: RequirementResult; check: RecordedCheck }[];
}

/** The failed checks (not the errors, told by errorGroups) grouped by the answer they got, in the order first met. */
export function failureGroups(results: RequirementResult[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const result of results) {
    for (const check of result.checks) {
      if (check.verdict !== 'fail') continue;
      const actual = check.actual ?? '';
      const group = groups.get(actual) ?? { actual, entries: [] };
      group.entries.push({ result, check });
      groups.set(actual, group);
    }
  }
  return [...groups.values()];
}

/** One group as the h2spec order has it, the shared answer once; a group of one check reads as failureLines. */
export function failureGroupLines(report: Pick<Report, 'exchanges'>, group: FailureGroup): string[] {
  const [first] = group.entries;
  if (!first) return [];
  if (group.entries.length === 1) return failureLines(report, first.result, first.check);
  const results = [...new Set(group.entries.map((entry) => entry.result))];
  const lines = [
    `${results.map((result) => result.id).join(', ')}: ${group.entries.length} checks got the same answer`,
    `  Actual:   ${group.actual}`,
  ];
  for (const result of results) {
    lines.push(`  ${result.id} (${result.level})  "${result.quote}"`);
    for (const { check } of group.entries.filter((entry) => entry.result === result)) lines.push(`    Check:  ${check.description}`);
    lines.push(...seeLine(result, '    See:    '));
  }
  const expected = new Map<string, string[]>();
  for (const { result, check } of group.entries) {
    const ids = expected.get(check.expected ?? '') ?? [];
    if (!ids.includes(result.id)) ids.push(result.id);
    expected.set(check.expected ?? '', ids);
  }
  const [only] = expected.keys();
  lines.push(
    `  Expected: ${expected.size === 1 ? (only ?? '') : [...expected].map(([text, ids]) => `${text} (${ids.join(', ')})`).join('; ')}`,
  );
  const exchange = exchangeOf(report, first.check);
  if (exchange) {
    const auth = exchange.request.headers.authorization;
    lines.push(
      `  Request:  ${exchange.request.method} ${exchange.request.url}${auth ? `  Authorization: ${auth}` : '  (no Authorization header)'} (the first check's)`,
      `  Repro:    ${exchange.repro}`,
    );
  }
  const party = results.find((result) => result.party)?.party;
  if (party) lines.push(`  Fault:    most likely the ${party}`);
  return lines;
}

/** Skipped requirements that all follow from one cause of the run, to be told once under it. */
export interface FoldedSkips {
  cause: string;
  requirements: string[];
}

/**
 * When no answer came back whole from the target (nothing listens at the port, the name does not resolve, the certificate
 * is refused, every answer stalls past the time-out), no requirement could be judged for that one cause: they are told
 * once, under the diagnosis that names it.
 */
export function unreachedRun(report: Pick<Report, 'requirements' | 'diagnoses'>): FoldedSkips | undefined {
  const unreached = report.diagnoses.some((diagnosis) => diagnosis.id === 'target-not-reachable');
  if (!unreached || report.requirements.some((result) => result.verdict !== 'error' && result.verdict !== 'skip')) return undefined;
  return {
    cause: 'no answer came back whole from the target (see the diagnosis)',
    requirements: report.requirements.map((result) => result.id),
  };
}

/**
 * When the run shows one cause that left nothing to judge (a front answered in the API's place, the token refused as
 * wrong, or no request with the token served at all), every skip follows from it: the skips are told under that cause.
 */
export function foldedSkips(report: Pick<Report, 'requirements' | 'exchanges' | 'diagnoses'>): FoldedSkips | undefined {
  const requirements = report.requirements.filter((result) => result.verdict === 'skip').map((result) => result.id);
  if (requirements.length < 2) return undefined;
  const unjudgeable = report.diagnoses.find((diagnosis) => diagnosis.inconclusive);
  if (unjudgeable) return { cause: unjudgeable.summary, requirements };
  // The valid token judged and refused, and nothing handed out on the API's paths: not a run the budget or deadline cut
  // short. The front controller's probe (/index.php/api/...) is evidence for the diagnosis, never judged itself.
  const refused = report.requirements.some((result) => result.id === 'AUTH-TOKEN-ACCEPTED' && result.verdict === 'fail');
  const probe = THROUGH_FRONT_CONTROLLER('/api/');
  const served = Object.values(report.exchanges).some(
    (exchange) => exchange.classification && isServed(exchange.classification) && !new URL(exchange.request.url).pathname.includes(probe),
  );
  if (!refused || served) return undefined;
  return {
    cause:
      "the valid token was refused and no request to the API's paths was served (see AUTH-TOKEN-ACCEPTED), so there was nothing to judge them on",
    requirements,
  };
}
