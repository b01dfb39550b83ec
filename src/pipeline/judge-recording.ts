import { prepareOutDir } from '../config/out-dir.js';
import { RECORDING_OUTPUTS } from '../report/model/outputs.js';
import { artifactScanner, clearOwnOutputs } from '../report/artifacts.js';
import type { Report } from '../report/model/types.js';
import { apiDocumentHash } from '../requirements/document.js';
import { SETTINGS } from '../config/settings.js';
import { concludeRun, targetReport } from './conclude.js';
import { catalogEntries, JUDGE_TIMEOUT_MS, recordedChoices, recordingOfRun, type RecordingFile } from '../record/recording-file.js';
import type { JudgeRun, RunHooks, RunSurroundings } from './run.js';
import { SpecRunner } from '../judge/spec-runner.js';
import { suiteVersion } from '../version.js';
import { suiteFailure } from '../errors.js';
import { catalogHash } from '../hash.js';

/** What differs between the suite that made the recording and this one, said rather than papered over. */
export function recordingDifferences(file: RecordingFile): string[] {
  const lines: string[] = [];
  if (file.suite.version !== suiteVersion) lines.push(`Recorded by suite ${file.suite.version}; judged by ${suiteVersion}.`);
  if (file.integrity.apiDocument !== apiDocumentHash) {
    lines.push(`The API document changed since the recording (${file.integrity.apiDocument}, now ${apiDocumentHash}).`);
  }
  if (file.integrity.catalog !== catalogHash) {
    const before = new Map(file.requirements.map((entry) => [entry.id, entry]));
    const now = catalogEntries();
    const ids = new Set(now.map((entry) => entry.id));
    const added = now.filter((entry) => !before.has(entry.id)).map((entry) => entry.id);
    const removed = file.requirements.filter((entry) => !ids.has(entry.id)).map((entry) => entry.id);
    const changed = now.filter((entry) => (before.get(entry.id)?.hash ?? entry.hash) !== entry.hash).map((entry) => entry.id);
    const parts = [
      added.length > 0 ? `new since: ${added.join(', ')}` : '',
      removed.length > 0 ? `no longer in the catalog: ${removed.join(', ')}` : '',
      changed.length > 0 ? `reworded or re-levelled: ${changed.join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`The requirement catalog changed since the recording (${parts.join('; ') || 'order only'}); judged by the current one.`);
  }
  const redacted = file.runs.flatMap((run) => run.exchanges).filter((entry) => 'tokenRedacted' in entry).length;
  if (redacted > 0) {
    lines.push(
      `${redacted} answer(s) held a secret or a credential, which the recording holds as <redacted>: checks of them may differ from the run's.`,
    );
  }
  return lines;
}

/** The requests the current specs ask for that the recording does not hold: judged as errors, not guessed. */
export function missingAnswers(report: Report): string[] {
  const lacking = report.requirements.filter((result) => result.checks.some((check) => check.error?.code === 'HARNESS_NOT_RECORDED'));
  return lacking.map((result) => result.id);
}

export interface JudgeResult {
  report: Report;
  writtenFiles: string[];
}

/** Judges a recording again with this suite's specs and catalog, sending nothing, and writes the reports to outDir. */
export async function judgeRecording(
  file: RecordingFile,
  outDir: string,
  hooks: Pick<RunHooks, 'onScenario'> = {},
  surroundings: RunSurroundings = { env: process.env },
): Promise<JudgeResult> {
  const { options } = file;
  const reportOptions = {
    ...options,
    password: '',
    deadlineMs: options.deadlineMs ?? SETTINGS.deadlineMs.default,
    concurrency: options.concurrency ?? SETTINGS.concurrency.default,
    ca: options.ca === undefined ? undefined : { path: options.ca, pem: '' },
    insecure: options.insecure ?? false,
  };
  const reportOf = (startedAt: string, scenarios: Parameters<typeof targetReport>[0]['scenarios'], errors: Report['errors']): Report =>
    targetReport({
      options: reportOptions,
      baseUrl: file.target.baseUrl,
      embeddedReference: file.target.embeddedReference,
      ...(file.runId === undefined ? {} : { runId: file.runId }),
      startedAt: new Date(startedAt),
      finishedAt: new Date(file.finishedAt),
      scenarios,
      errors,
    });
  await prepareOutDir(outDir);
  // The recording being judged may be the one in this folder: it stays, the reports are replaced.
  await clearOwnOutputs(outDir, RECORDING_OUTPUTS);
  const reports: Report[] = [];
  try {
    let runner: SpecRunner | undefined;
    const judge: JudgeRun =
      surroundings.judge ??
      (async (run) => {
        runner ??= await SpecRunner.start({ timeoutMs: JUDGE_TIMEOUT_MS, onScenario: hooks.onScenario });
        return runner.judge([run]);
      });
    try {
      for (const run of file.runs) {
        const judged = await judge({ settings: recordedChoices(file), recording: recordingOfRun(run) });
        reports.push(reportOf(run.startedAt, judged.scenarios[0] ?? [], judged.errors));
      }
    } finally {
      await runner?.close();
    }
  } catch (error) {
    reports.push(reportOf(file.startedAt, [], [suiteFailure('the spec runner', error)]));
  }
  const baseUrl = file.target.embeddedReference ? undefined : file.target.baseUrl;
  // The recording holds no token to look for; an Authorization value it holds is still refused.
  return concludeRun(reports, { out: outDir, baseUrl, insecure: options.insecure ?? false }, artifactScanner([]), surroundings.env);
}
