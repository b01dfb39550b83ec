import { readFile } from 'node:fs/promises';
import { HarnessError } from '../errors.js';
import { formatSchemaErrors, validator } from '../assertions/schemas.js';
import type { TargetSettings } from '../harness/settings.js';
import { newRunId } from '../harness/trace-context.js';
import { catalogHash } from '../report/integrity.js';
import { clearOwnOutputs, REPORT_OUTPUTS } from '../report/outputs.js';
import { suiteFailure } from '../report/suite-error.js';
import type { Report } from '../report/types.js';
import { apiDocumentHash } from '../requirements/document.js';
import { OPTIONS } from '../config/options.js';
import { concludeRun, targetReport } from './conclude.js';
import { catalogEntries, RECORDING_FORMAT, RECORDING_VERSION, recordingOfRun, type RecordingFile } from './recording-file.js';
import type { RunHooks } from './run.js';
import { SpecRunner } from './spec-runner.js';
import { suiteVersion } from './version.js';

/** Judging needs no network; this only bounds a spec that would hang. */
const JUDGE_TIMEOUT_MS = 60_000;

function unreadable(
  path: string,
  reason: string,
  hint = 'Pass the recording.json a run wrote (in its --out folder, reports/ by default)',
): HarnessError {
  return new HarnessError('HARNESS_RECORDING_UNREADABLE', `${path} ${reason}`, hint, 'environment');
}

/** Reads and checks a recording.json; anything else is refused in one line, never judged by guesswork. */
export async function readRecording(path: string): Promise<RecordingFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw unreadable(path, `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw unreadable(path, `is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const header = (data ?? {}) as Partial<Pick<RecordingFile, 'format' | 'formatVersion' | 'suite'>>;
  if (typeof data !== 'object' || Array.isArray(data) || header.format !== RECORDING_FORMAT) {
    throw unreadable(path, `is not a recording of ticketing-conformance (it has no "format": "${RECORDING_FORMAT}")`);
  }
  if (header.formatVersion !== RECORDING_VERSION) {
    const newer = typeof header.formatVersion === 'number' && header.formatVersion > RECORDING_VERSION;
    throw unreadable(
      path,
      `is recording format ${String(header.formatVersion)}, which this suite (${suiteVersion}) does not read: it reads format ${RECORDING_VERSION}`,
      newer
        ? `Judge it with the suite that made it (${header.suite?.version ?? 'a later version'}) or a later one`
        : 'Record the target again with this version of the suite',
    );
  }
  const validate = validator('recording');
  if (!validate(data)) {
    throw unreadable(
      path,
      `is not a valid recording: ${formatSchemaErrors(validate.errors?.slice(0, 3))}`,
      'Pass recording.json as a run wrote it',
    );
  }
  return data as RecordingFile;
}

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
  return lines;
}

/** The requests the current specs ask for that the recording does not hold: judged as errors, not guessed. */
export function missingAnswers(report: Report): string[] {
  const lacking = report.requirements.filter((result) => result.checks.some((check) => check.error?.code === 'HARNESS_NOT_RECORDED'));
  return lacking.map((result) => result.id);
}

function offlineSettings(file: RecordingFile): TargetSettings {
  const { options } = file;
  return {
    baseUrl: file.target.baseUrl,
    token: '',
    password: '',
    statusId: options.statusId,
    ...(options.lang === undefined ? {} : { lang: options.lang }),
    ...(options.missingLang === undefined ? {} : { missingLang: options.missingLang }),
    timeoutMs: options.timeoutMs,
    maxBodyBytes: 0,
    maxRequests: options.maxRequests,
    userAgent: `ticketing-conformance/${suiteVersion}`,
    deadlineAt: Date.now() + JUDGE_TIMEOUT_MS,
    concurrency: options.concurrency ?? Number(OPTIONS.concurrency.default),
    insecure: options.insecure ?? false,
    proxyFromEnvironment: false,
    runId: file.runId ?? newRunId(),
    offline: true,
  };
}

export interface JudgeResult {
  report: Report;
  writtenFiles: string[];
}

/** Judges a recording again with this suite's specs and catalog, sending nothing, and writes the reports to outDir. */
export async function judgeRecording(file: RecordingFile, outDir: string, hooks: Pick<RunHooks, 'onScenario'> = {}): Promise<JudgeResult> {
  const { options } = file;
  const reportOptions = {
    ...options,
    password: '',
    deadlineMs: options.deadlineMs ?? Number(OPTIONS.deadlineMs.default),
    concurrency: options.concurrency ?? Number(OPTIONS.concurrency.default),
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
  await clearOwnOutputs(outDir, REPORT_OUTPUTS);
  const reports: Report[] = [];
  try {
    const runner = await SpecRunner.start({ timeoutMs: JUDGE_TIMEOUT_MS, onScenario: hooks.onScenario });
    try {
      for (const run of file.runs) {
        const judged = await runner.judge([{ settings: offlineSettings(file), recording: recordingOfRun(run) }]);
        reports.push(reportOf(run.startedAt, judged.scenarios[0] ?? [], judged.errors));
      }
    } finally {
      await runner.close();
    }
  } catch (error) {
    reports.push(reportOf(file.startedAt, [], [suiteFailure('the spec runner', error)]));
  }
  const baseUrl = file.target.embeddedReference ? undefined : file.target.baseUrl;
  return concludeRun(reports, { out: outDir, baseUrl, insecure: options.insecure ?? false }, '');
}
