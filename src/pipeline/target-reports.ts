import { join, relative, sep } from 'node:path';
import type { LoadedBaseline } from '../config/baseline.js';
import type { ReportKind } from '../config/reports.js';
import { clearOwnOutputs, putArtifacts } from '../files/artifacts.js';
import type { RunError } from '../errors.js';
import type { TargetJudged } from '../judge/judge-queue.js';
import type { Recording } from '../record/recording.js';
import { screenedRecording } from '../record/write-recording.js';
import { matrixRow } from '../report/matrix/build.js';
import type { MatrixTarget } from '../report/matrix/types.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { diagnoseJudged, recordingHeader, writeRun, type PassFacts } from './reporting.js';

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
  /**
   * The targets folder was absent before the run: each target's folder is new, with nothing to clear in it, and its
   * files go on the list of the matrix's folder, not on a list of their own.
   */
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
  /** recording.json and .har, already written (see writeTargetRecording): the files, and the leak errors of those refused. */
  recordingWritten?: { files: string[]; refused: RunError[] };
}

/** A target's reports as written: its row of the matrix, and the files written, relative to the matrix's folder. */
export interface WrittenTarget {
  row: MatrixTarget;
  files: string[];
}

/** A path inside the matrix's folder as its list names it: relative, "/" between segments. */
const listedPath = (out: string, path: string): string => relative(out, path).split(sep).join('/');

/**
 * Diagnose, build and write one target of a matrix into its own folder, and give its row of the matrix and its files:
 * the same whether the judging thread does it, where the target was judged, or the main thread. begun: the judging
 * thread began the target's folder, which a new folder's files are then written over, not created in.
 */
export async function writeTargetReports(
  { fleet, name, position, facts, recording, recordingWritten }: TargetReports,
  judged: TargetJudged,
  scanner: SecretScanner,
  { begun = false }: { begun?: boolean } = {},
): Promise<WrittenTarget> {
  const dir = join(fleet.out, TARGETS_DIR, name);
  if (!fleet.newFolders) await clearOwnOutputs(dir);
  // The matrix summary, not each target's, belongs in a CI job summary.
  const { report, writtenFiles } = await writeRun(
    [diagnoseJudged(facts, judged)],
    [{ startedAt: facts.described.startedAt, recording }],
    dir,
    scanner,
    {
      ...(fleet.baseline ? { baseline: { baseline: fleet.baseline, targetName: name } } : {}),
      reports: fleet.reports,
      newFolder: fleet.newFolders && !begun,
      listed: !fleet.newFolders,
      ...(recordingWritten ? { recordingRefused: recordingWritten.refused } : {}),
    },
  );
  return {
    row: matrixRow(report, name, position, listedPath(fleet.out, dir)),
    files: [...writtenFiles.map((path) => listedPath(fleet.out, path)), ...(recordingWritten?.files ?? [])],
  };
}

/**
 * A matrix target's recording.json and .har, written by the thread that recorded it as soon as its answers are in, in
 * its new folder: with every report the judging thread is the busier one, and the recording needs nothing judged. The
 * order comes back with what was written, for the judging thread to write the rest; unchanged when the folder is not
 * new (it is cleared first), the recording is not chosen, or the writing failed (the rest of the target's writing then
 * meets what failed here, and tells it).
 */
export async function writeTargetRecording(order: TargetReports, scanner: SecretScanner): Promise<TargetReports> {
  const { fleet, name, facts, recording } = order;
  const { described, finishedAt } = facts;
  if (!fleet.newFolders || !fleet.reports.includes('recording') || !recording || !finishedAt) return order;
  const screening = screenedRecording(
    {
      ...recordingHeader(described, described.startedAt.toISOString(), finishedAt.toISOString()),
      runs: [{ startedAt: described.startedAt, recording }],
    },
    scanner,
  );
  try {
    const written = await putArtifacts(join(fleet.out, TARGETS_DIR, name), screening.passed, { newFolder: true, listed: false });
    return { ...order, recordingWritten: { files: written.map((path) => listedPath(fleet.out, path)), refused: screening.refused } };
  } catch {
    return order;
  }
}
