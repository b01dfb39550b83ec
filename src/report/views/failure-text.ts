import type { RecordedCheck } from '../../judge/scenario-result.js';
import { exchangeOf, type Report, type RequirementResult } from '../model/types.js';

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
  return lines;
}

export function failingChecks(result: RequirementResult): RecordedCheck[] {
  return result.checks.filter((check) => check.verdict === 'fail' || check.verdict === 'error');
}

/** The closing line; requirements that could not be judged or changed verdict are counted, never left out silently. */
export function countsLine(totals: Record<string, number>): string {
  const extra = [totals.error ? `${totals.error} could not be judged` : '', totals.flaky ? `${totals.flaky} flaky` : '']
    .filter(Boolean)
    .map((part) => `, ${part}`)
    .join('');
  return `${totals.pass ?? 0} passed, ${totals.fail ?? 0} failed, ${totals.skip ?? 0} skipped${extra}`;
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
