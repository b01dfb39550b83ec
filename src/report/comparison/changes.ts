import { terminalLines } from '../views/escape/terminal.js';
import { foldedSkips, unreachedRun } from '../views/failure-text.js';
import type { Report, RequirementResult, Verdict } from '../model/types.js';

interface VerdictChange {
  id: string;
  level: string;
  before: Verdict | 'absent';
  after: Verdict | 'absent';
}

interface ObservationChange {
  id: string;
  before: string[];
  after: string[];
}

export interface RunChanges {
  regressions: VerdictChange[];
  fixes: VerdictChange[];
  /** Any other change of verdict, such as a pass that could not be judged this time. */
  otherChanges: VerdictChange[];
  /** The changes to a skip that all follow from one cause of the newer run (a front, the token refused): told once. */
  unjudged?: { cause: string; changes: VerdictChange[] };
  observations: ObservationChange[];
}

const FAILING: (Verdict | 'absent')[] = ['fail', 'warn'];
const GOOD: (Verdict | 'absent')[] = ['pass', 'info'];

/** What the target did where the document leaves it open: each observation as "description: actual". */
function observations(result: RequirementResult | undefined): string[] {
  return (result?.checks ?? []).filter((check) => check.verdict === 'info').map((check) => `${check.description}: ${check.actual ?? ''}`);
}

/** Compares two reports requirement by requirement: what broke, what was fixed, what was observed differently. */
export function changesBetween(before: Report, after: Report): RunChanges {
  const changes: RunChanges = { regressions: [], fixes: [], otherChanges: [], observations: [] };
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
      if (FAILING.includes(change.after) && !FAILING.includes(change.before)) changes.regressions.push(change);
      else if (FAILING.includes(change.before) && GOOD.includes(change.after)) changes.fixes.push(change);
      else changes.otherChanges.push(change);
    }
    const seenBefore = observations(old);
    const seenAfter = observations(now);
    if (old && now && seenBefore.join('\n') !== seenAfter.join('\n'))
      changes.observations.push({ id, before: seenBefore, after: seenAfter });
  }
  const folded = unreachedRun(after) ?? foldedSkips(after);
  const followFromIt = changes.otherChanges.filter((change) => folded?.requirements.includes(change.id));
  if (folded && followFromIt.length > 1) {
    changes.unjudged = { cause: folded.cause, changes: followFromIt };
    changes.otherChanges = changes.otherChanges.filter((change) => !followFromIt.includes(change));
  }
  return changes;
}

export function renderChanges(changes: RunChanges, targets?: { before: string; after: string }): string {
  const lines: string[] = [];
  // Runs of two targets compared on purpose: every line below is read as a difference between them, not a change.
  if (targets) lines.push(`Different targets: ${targets.before} (before) and ${targets.after} (after)`, '');
  const section = (title: string, changes: VerdictChange[]): void => {
    if (changes.length === 0) return;
    lines.push(`${title} (${changes.length}):`);
    for (const change of changes) lines.push(`  ${change.id} (${change.level}): ${change.before} -> ${change.after}`);
    lines.push('');
  };
  section('Regressions', changes.regressions);
  section('Fixes', changes.fixes);
  if (changes.unjudged) {
    const { cause, changes: unjudged } = changes.unjudged;
    const before = [...new Set(unjudged.map((change) => change.before))].join(' or ');
    const after = [...new Set(unjudged.map((change) => change.after))].join(' or ');
    lines.push(
      `Not judged this time, all for one cause: ${cause}`,
      `  ${unjudged.length} requirement(s) ${before} -> ${after}: ${unjudged.map((change) => change.id).join(', ')}`,
      '',
    );
  }
  section('Other changes of verdict', changes.otherChanges);
  if (changes.observations.length > 0) {
    lines.push(`Changed observations (${changes.observations.length}):`);
    for (const change of changes.observations) {
      lines.push(`  ${change.id}:`);
      const was = change.before.filter((line) => !change.after.includes(line));
      const now = change.after.filter((line) => !change.before.includes(line));
      // Each "was" has its "now": an observation no longer made is said to be gone, not left without an answer.
      for (let index = 0; index < Math.max(was.length, now.length); index += 1) {
        lines.push(`    was: ${was[index] ?? '(not observed)'}`, `    now: ${now[index] ?? '(not observed)'}`);
      }
    }
    lines.push('');
  }
  lines.push(
    `${changes.regressions.length} regression(s), ${changes.fixes.length} fix(es), ${changes.observations.length} changed observation(s)`,
  );
  return terminalLines(lines);
}
