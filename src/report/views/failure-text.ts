import type { RecordedCheck } from '../../judge/scenario-result.js';
import { exchangeOf, type Report, type RequirementResult, type Verdict } from '../model/types.js';

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
export function countsLine(totals: Partial<Record<Verdict, number>>): string {
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
