import { outcomesOf, type Outcome } from './outcomes.js';
import type { Report, RunVerdict, Verdict } from './types.js';

/** One run of one target, as the history shows it. */
export interface HistoryRun {
  /** The report.json it was read from, relative to the folder given. */
  file: string;
  startedAt: string;
  verdict: RunVerdict;
  exitCode: number;
  suiteVersion: string;
  /**
   * The run's MUST requirements by outcome, as its counts line has them: passed, failed (flaky included), and skipped
   * (left unjudged by a skip or an error, or a failure the baseline waived).
   */
  must: { passed: number; failed: number; skipped: number };
  /** The most likely cause the run named, in its own words. */
  diagnosis?: string;
  verdicts: Record<string, Verdict>;
  /** What each verdict was to the run's exit code, under its --strict and its baseline. */
  outcomes: Record<string, Outcome>;
}

/** A requirement that began or ceased to fail the run between two runs where it was judged. */
interface FailureChange {
  requirement: string;
  kind: 'started-failing' | 'stopped-failing';
  /** Index in the target's runs of the first run with the new state. */
  run: number;
  from: Verdict;
  to: Verdict;
}

export interface TargetHistory {
  baseUrl: string;
  runs: HistoryRun[];
  /** Every requirement any run judged, in the order the reports list them. */
  requirements: string[];
  changes: FailureChange[];
}

export interface History {
  targets: TargetHistory[];
  /** Files under the folder that looked like reports but could not be read, with why. */
  skipped: { file: string; reason: string }[];
}

/** What a history is built from: the reports read under a folder, each with its path there, and those left out. */
export interface PastRuns {
  reports: { file: string; report: Report }[];
  skipped: History['skipped'];
}

/**
 * The outcomes that tell whether a requirement failed the run: a warning did not, and a failure the baseline waived, a
 * skip or an error say nothing either way.
 */
const JUDGED: ReadonlySet<Outcome> = new Set(['passed', 'failed', 'warned']);

function runOf(report: Report, file: string): HistoryRun {
  const outcomes = outcomesOf(report);
  const must = outcomes.filter(({ result }) => result.level === 'MUST').map(({ outcome }) => outcome);
  return {
    file,
    startedAt: report.startedAt,
    verdict: report.verdict,
    exitCode: report.exitCode,
    suiteVersion: report.suite.version,
    must: {
      passed: must.filter((outcome) => outcome === 'passed').length,
      failed: must.filter((outcome) => outcome === 'failed').length,
      skipped: must.filter((outcome) => outcome !== 'passed' && outcome !== 'failed').length,
    },
    ...(report.diagnoses[0] ? { diagnosis: report.diagnoses[0].summary } : {}),
    verdicts: Object.fromEntries(report.requirements.map((result) => [result.id, result.verdict])),
    outcomes: Object.fromEntries(outcomes.map(({ result, outcome }) => [result.id, outcome])),
  };
}

/** When each requirement started or stopped failing the run, comparing each run with the last one that judged it. */
function failureChanges(runs: HistoryRun[], requirements: string[]): FailureChange[] {
  const changes: FailureChange[] = [];
  for (const requirement of requirements) {
    let last: { verdict: Verdict; failed: boolean } | undefined;
    runs.forEach((run, index) => {
      const verdict = run.verdicts[requirement];
      const outcome = run.outcomes[requirement];
      if (verdict === undefined || outcome === undefined || !JUDGED.has(outcome)) return;
      const failed = outcome === 'failed';
      if (last !== undefined && last.failed !== failed) {
        changes.push({ requirement, kind: failed ? 'started-failing' : 'stopped-failing', run: index, from: last.verdict, to: verdict });
      }
      last = { verdict, failed };
    });
  }
  return changes.sort((a, b) => a.run - b.run || a.requirement.localeCompare(b.requirement));
}

/** The runs grouped by target, each target's runs ordered by when they started. */
export function buildHistory({ reports, skipped }: PastRuns): History {
  const byTarget = new Map<string, HistoryRun[]>();
  const order = new Map<string, string[]>();
  for (const { file, report } of reports) {
    const runs = byTarget.get(report.target.baseUrl) ?? [];
    runs.push(runOf(report, file));
    byTarget.set(report.target.baseUrl, runs);
    const ids = order.get(report.target.baseUrl) ?? [];
    for (const result of report.requirements) if (!ids.includes(result.id)) ids.push(result.id);
    order.set(report.target.baseUrl, ids);
  }
  const targets = [...byTarget].map(([baseUrl, runs]) => {
    runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.file.localeCompare(b.file));
    const requirements = order.get(baseUrl) ?? [];
    return { baseUrl, runs, requirements, changes: failureChanges(runs, requirements) };
  });
  return { targets: targets.sort((a, b) => a.baseUrl.localeCompare(b.baseUrl)), skipped };
}
