import { prepareOutDir } from '../config/out-dir.js';
import { safetyWarnings } from '../config/warnings.js';
import { RECORDING_OUTPUTS } from '../record/write-recording.js';
import { fromWrittenChoices } from '../record/settings.js';
import { artifactScanner, clearOwnOutputs } from '../files/artifacts.js';
import type { DiagnosedPass, Report } from '../report/model/types.js';
import { apiDocumentHash } from '../requirements/document.js';
import { flagPlace, SETTINGS } from '../config/settings.js';
import { diagnosePass, judgeFor, judgePass, writeRun, type PlannedTarget } from './pipeline.js';
import { catalogEntries, JUDGE_TIMEOUT_MS, recordedChoices, recordingOfRun, type RecordingFile } from '../record/recording-file.js';
import type { RunHooks, RunSurroundings } from './run.js';
import { suiteVersion } from '../version.js';
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
  const { rateLimit, ...options } = file.options;
  const target: PlannedTarget = {
    baseUrl: file.target.baseUrl,
    embeddedReference: file.target.embeddedReference,
    token: '',
    options: {
      ...options,
      // Read back through the setting's parser, as the flag was: the report shows it as given.
      ...(rateLimit === undefined ? {} : { rateLimit: SETTINGS.rateLimit.parse(rateLimit, flagPlace(SETTINGS.rateLimit)) }),
      ...fromWrittenChoices(options),
      password: '',
      deadlineMs: options.deadlineMs ?? SETTINGS.deadlineMs.default,
      concurrency: options.concurrency ?? SETTINGS.concurrency.default,
      ca: options.ca === undefined ? undefined : { path: options.ca, pem: '' },
      insecure: options.insecure ?? false,
      cert: options.cert === undefined ? undefined : { path: options.cert, pem: '' },
    },
  };
  await prepareOutDir(outDir);
  // The recording being judged may be the one in this folder: it stays, the reports are replaced.
  await clearOwnOutputs(outDir, RECORDING_OUTPUTS);
  const { judge, own } = judgeFor(surroundings.judge, {
    timeoutMs: JUDGE_TIMEOUT_MS,
    ...(hooks.onScenario ? { onScenario: hooks.onScenario } : {}),
  });
  const diagnosed: DiagnosedPass[] = [];
  try {
    // Each run of the file is a pass recorded earlier: from here on, its road is a run's.
    for (const run of file.runs) {
      const pass = {
        target,
        startedAt: new Date(run.startedAt),
        finishedAt: new Date(file.finishedAt),
        choices: recordedChoices(file),
        ...(file.runId === undefined ? {} : { runId: file.runId }),
        recording: recordingOfRun(run),
      };
      diagnosed.push(diagnosePass(await judgePass(pass, judge)));
    }
  } finally {
    await own?.close();
  }
  const baseUrl = file.target.embeddedReference ? undefined : file.target.baseUrl;
  // The recording holds no token to look for; an Authorization value it holds is still refused.
  return writeRun(diagnosed, [], outDir, artifactScanner([]), {
    warnings: safetyWarnings({ baseUrl, insecure: options.insecure ?? false }, surroundings.env),
    ...(surroundings.env.GITHUB_STEP_SUMMARY ? { stepSummary: surroundings.env.GITHUB_STEP_SUMMARY } : {}),
    env: surroundings.env,
  });
}
