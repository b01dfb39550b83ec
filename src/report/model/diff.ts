import { terminalLines } from '../views/escape/terminal.js';
import type { Report, RequirementResult, Verdict } from './types.js';

export interface VerdictChange {
  id: string;
  level: string;
  before: Verdict | 'absent';
  after: Verdict | 'absent';
}

export interface ObservationChange {
  id: string;
  before: string[];
  after: string[];
}

export interface ReportDiff {
  regressions: VerdictChange[];
  fixes: VerdictChange[];
  /** Any other change of verdict, such as a pass that could not be judged this time. */
  otherChanges: VerdictChange[];
  observations: ObservationChange[];
}

const FAILING: (Verdict | 'absent')[] = ['fail', 'warn'];
const GOOD: (Verdict | 'absent')[] = ['pass', 'info'];

/** What the target did where the document leaves it open: each observation as "description: actual". */
function observations(result: RequirementResult | undefined): string[] {
  return (result?.checks ?? []).filter((check) => check.verdict === 'info').map((check) => `${check.description}: ${check.actual ?? ''}`);
}

/** Compares two reports requirement by requirement: what broke, what was fixed, what was observed differently. */
export function diffReports(before: Report, after: Report): ReportDiff {
  const diff: ReportDiff = { regressions: [], fixes: [], otherChanges: [], observations: [] };
  const beforeById = new Map(before.requirements.map((result) => [result.id, result]));
  const afterById = new Map(after.requirements.map((result) => [result.id, result]));
  const ids = [...new Set([...afterById.keys(), ...beforeById.keys()])];
  for (const id of ids) {
    const old = beforeById.get(id);
    const now = afterById.get(id);
    const change: VerdictChange = {
      id,
      level: (now ?? old)?.level ?? '',
      before: old?.verdict ?? 'absent',
      after: now?.verdict ?? 'absent',
    };
    if (change.before !== change.after) {
      if (FAILING.includes(change.after) && !FAILING.includes(change.before)) diff.regressions.push(change);
      else if (FAILING.includes(change.before) && GOOD.includes(change.after)) diff.fixes.push(change);
      else diff.otherChanges.push(change);
    }
    const seenBefore = observations(old);
    const seenAfter = observations(now);
    if (old && now && seenBefore.join('\n') !== seenAfter.join('\n')) diff.observations.push({ id, before: seenBefore, after: seenAfter });
  }
  return diff;
}

export function renderDiff(diff: ReportDiff): string {
  const lines: string[] = [];
  const section = (title: string, changes: VerdictChange[]): void => {
    if (changes.length === 0) return;
    lines.push(`${title} (${changes.length}):`);
    for (const change of changes) lines.push(`  ${change.id} (${change.level}): ${change.before} -> ${change.after}`);
    lines.push('');
  };
  section('Regressions', diff.regressions);
  section('Fixes', diff.fixes);
  section('Other changes of verdict', diff.otherChanges);
  if (diff.observations.length > 0) {
    lines.push(`Changed observations (${diff.observations.length}):`);
    for (const change of diff.observations) {
      lines.push(`  ${change.id}:`);
      for (const text of change.before.filter((line) => !change.after.includes(line))) lines.push(`    was: ${text}`);
      for (const text of change.after.filter((line) => !change.before.includes(line))) lines.push(`    now: ${text}`);
    }
    lines.push('');
  }
  lines.push(`${diff.regressions.length} regression(s), ${diff.fixes.length} fix(es), ${diff.observations.length} changed observation(s)`);
  return terminalLines(lines);
}
