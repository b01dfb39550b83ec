import { join, relative, sep } from 'node:path';
import type { LoadedBaseline } from '../config/baseline.js';
import type { ReportKind } from '../config/reports.js';
import { clearOwnOutputs } from '../files/artifacts.js';
import type { TargetJudged } from '../judge/judge-queue.js';
import type { Recording } from '../record/recording.js';
import { matrixRow } from '../report/matrix/build.js';
import type { MatrixTarget } from '../report/matrix/types.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { diagnoseJudged, writeRun, type PassFacts } from './reporting.js';

export const TARGETS_DIR = 'targets';

/** Every token, password and piece of a client key a matrix sends: what its secret scanner is made of. */
export interface FleetSecrets {
  tokens: string[];
  passwords: string[];
  clientKeys: string[];
}

/**
 * What every target of a matrix is written with. Plain data, one object shared by the targets: a batch's message to the
 * judging thread carries it once.
 */
export interface FleetReports {
  /** Tells one matrix from another in a judging thread that outlives it, which makes the fleet's scanner once. */
  id: string;
  out: string;
  /** The reports each target writes (--reports, Allure's left to the matrix). */
  reports: ReportKind[];
  baseline?: LoadedBaseline;
  /** The targets folder was absent before the run: each target's folder is new, with nothing to clear in it. */
  newFolders: boolean;
  secrets: FleetSecrets;
}

/** One target's reports to write: its place in the targets file, what its report says of its pass, and its recording. */
export interface TargetReports {
  fleet: FleetReports;
  name: string;
  position: number;
  facts: PassFacts;
  recording?: Recording;
}

/**
 * Diagnose, build and write one target of a matrix into its own folder, and give its row of the matrix: the same
 * whether the judging thread does it, where the target was judged, or the main thread.
 */
export async function writeTargetReports(
  { fleet, name, position, facts, recording }: TargetReports,
  judged: TargetJudged,
  scanner: SecretScanner,
): Promise<MatrixTarget> {
  const dir = join(fleet.out, TARGETS_DIR, name);
  if (!fleet.newFolders) await clearOwnOutputs(dir);
  // The matrix summary, not each target's, belongs in a CI job summary.
  const { report } = await writeRun([diagnoseJudged(facts, judged)], [{ startedAt: facts.described.startedAt, recording }], dir, scanner, {
    ...(fleet.baseline ? { baseline: { baseline: fleet.baseline, targetName: name } } : {}),
    reports: fleet.reports,
    newFolder: fleet.newFolders,
  });
  return matrixRow(report, name, position, relative(fleet.out, dir).split(sep).join('/'));
}
