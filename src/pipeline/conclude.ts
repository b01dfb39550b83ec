import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/settings.js';
import type { TargetOptions } from '../config/targets.js';
import type { Recording } from '../record/recording.js';
import type { SecretScanner } from '../secrets/scanner.js';
import type { ScenarioResult } from '../judge/scenario-result.js';
import { applyBaseline } from '../report/model/baseline.js';
import { buildReport, judgedRun, type ReportInput } from '../report/model/build.js';
import { diagnose } from '../diagnosis/diagnose.js';
import { mergeRepeatedRuns } from '../report/model/repeat.js';
import type { Report } from '../report/model/types.js';
import { HAR_FILE, RECORDING_FILE } from '../report/model/outputs.js';
import { writeReports } from '../report/write.js';
import { renderHar } from '../record/har.js';
import { recordingFile } from '../record/recording-file.js';
import { suiteVersion } from '../version.js';
import { safetyWarnings } from '../config/warnings.js';
import type { RunError } from '../errors.js';

export interface TargetReportInput {
  options: TargetOptions;
  baseUrl: string;
  embeddedReference: boolean;
  startedAt: Date;
  /** The trace id every request of the run carried in its traceparent header. */
  runId?: string;
  /** When the answers were in; now, unless a recording is judged again. */
  finishedAt?: Date;
  scenarios: ScenarioResult[];
  errors: RunError[];
}

function deadlinePassed(deadlineMs: number, scenarios: ScenarioResult[]): RunError | undefined {
  const cut = scenarios.some((scenario) => scenario.checks.some((check) => check.error?.code === 'HARNESS_DEADLINE'));
  if (!cut) return undefined;
  return {
    code: 'HARNESS_DEADLINE',
    message: `the run deadline of ${deadlineMs} ms passed before every scenario finished; the report holds what was learned until then`,
    hint: 'Raise --deadline-ms, or find out why the target is slow (see the time-outs in the report)',
    party: 'environment',
  };
}

/**
 * The stages after the judge: what was judged folded per requirement, diagnosed from the classified answers, and the
 * report built once from both.
 */
export function reportFrom(input: ReportInput): Report {
  const judged = judgedRun(input.scenarios, input.complete);
  const diagnoses = diagnose(judged.requirements, judged.exchanges, { baseUrl: input.target.baseUrl, statusId: input.options.statusId });
  return buildReport(input, judged, diagnoses);
}

export function targetReport(input: TargetReportInput): Report {
  const { options } = input;
  const deadlineError = deadlinePassed(options.deadlineMs, input.scenarios);
  const errors = deadlineError ? [...input.errors, deadlineError] : input.errors;
  return reportFrom({
    suite: { name: 'ticketing-conformance', version: suiteVersion },
    ...(input.runId ? { runId: input.runId } : {}),
    target: { baseUrl: input.baseUrl, embeddedReference: input.embeddedReference },
    options: {
      statusId: options.statusId,
      ...(options.lang ? { lang: options.lang } : {}),
      ...(options.missingLang ? { missingLang: options.missingLang } : {}),
      strict: options.strict,
      timeoutMs: options.timeoutMs,
      maxRequests: options.maxRequests,
      repeat: options.repeat,
      deadlineMs: options.deadlineMs,
      concurrency: options.concurrency,
      ...(options.ca ? { ca: options.ca.path } : {}),
      ...(options.insecure ? { insecure: true } : {}),
    },
    startedAt: input.startedAt,
    finishedAt: input.finishedAt ?? new Date(),
    complete: input.scenarios.length > 0 && errors.length === 0,
    scenarios: input.scenarios,
    errors,
  });
}

/** What each pass over the target recorded, and when it started. */
export type RecordedRun = { startedAt: Date; recording: Recording };

/** recording.json and recording.har: the run's exchanges, each once, for judging again and for HAR viewers. */
export function recordingFiles(report: Report, runs: RecordedRun[], scanner: SecretScanner): { name: string; content: string }[] {
  if (runs.length === 0) return [];
  const file = recordingFile({
    suite: report.suite,
    ...(report.runId === undefined ? {} : { runId: report.runId }),
    target: { baseUrl: report.target.baseUrl, embeddedReference: report.target.embeddedReference },
    options: report.options,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    runs,
    redact: scanner.redact,
  });
  return [
    { name: RECORDING_FILE, content: `${JSON.stringify(file, null, 2)}\n` },
    { name: HAR_FILE, content: renderHar(file) },
  ];
}

/**
 * The one report of a run (its --repeat runs merged), judged against a baseline, with its warnings, written
 * with the recording it was judged from.
 */
export async function concludeRun(
  reports: Report[],
  config: Pick<Config, 'out' | 'baseUrl' | 'insecure'>,
  scanner: SecretScanner,
  env: Record<string, string | undefined>,
  baseline?: LoadedBaseline,
  recorded: RecordedRun[] = [],
): Promise<{ report: Report; writtenFiles: string[] }> {
  const report = mergeRepeatedRuns(reports);
  if (baseline) applyBaseline(report, baseline);
  const warnings = safetyWarnings({ baseUrl: config.baseUrl, insecure: config.insecure }, env);
  if (warnings.length > 0) report.warnings = warnings;
  const written = await writeReports(report, config.out, scanner, {
    stepSummary: env.GITHUB_STEP_SUMMARY,
    env,
    jsonFiles: recordingFiles(report, recorded, scanner),
  });
  return { report: written.report, writtenFiles: written.written };
}
