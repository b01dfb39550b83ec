import { REPORT_KINDS, type ReportKind } from '../config/reports.js';
import type { TargetOptions } from '../config/targets.js';
import { apiPathOf, classifyAnswer } from '../classify/classify.js';
import { diagnose } from '../diagnosis/diagnose.js';
import type { StackSetup } from '../diagnosis/answers.js';
import type { ClassifiedExchange, ClassifiedExchanges, Diagnosis, JudgedRequirement } from '../diagnosis/types.js';
import type { RunError } from '../errors.js';
import type { TargetJudged } from '../judge/judge-queue.js';
import type { JudgedExchange, ScenarioResult } from '../judge/scenario-result.js';
import type { Recording } from '../record/recording.js';
import type { RequestChoices } from '../record/settings.js';
import type { RecordingInput } from '../record/recording-file.js';
import { screenedRecording } from '../record/write-recording.js';
import type { BaselineInput } from '../report/model/baseline.js';
import { buildReport, assembleDiagnosedPass, judgedRun, type ReportInput } from '../report/model/build.js';
import type { DiagnosedPass, Report, RunWarning } from '../report/model/types.js';
import { stepSummaryProblem, writeReports } from '../report/write.js';
import type { SecretScanner } from '../secrets/scanner.js';

/**
 * The stages after judging: diagnose, build, write. They load neither the HTTP client nor the judge, so the thread that
 * judged a matrix's targets builds and writes their reports through them too (see in-judging-thread.ts).
 */

/** The bounds that can cut a pass short, which its report names when they did. */
type PassLimits = Pick<TargetOptions, 'deadlineMs' | 'rateLimit'>;

/**
 * What a pass's report says of it besides what the judge found, as plain data: the thread that judged the pass can be
 * handed it, and no token or key is in it.
 */
export interface PassFacts {
  described: Omit<ReportInput, 'finishedAt' | 'complete' | 'scenarios' | 'errors'>;
  /** When the answers were in; when the pass is diagnosed, unless told. */
  finishedAt?: Date;
  limits: PassLimits;
  choices: Pick<RequestChoices, 'statusId' | 'profile'>;
  /** Why nothing could be recorded, if so. */
  failure?: RunError;
}

function deadlinePassed({ deadlineMs, rateLimit }: PassLimits, scenarios: ScenarioResult[]): RunError | undefined {
  const cut = scenarios.some((scenario) => scenario.checks.some((check) => check.error?.code === 'HARNESS_DEADLINE'));
  if (!cut) return undefined;
  return {
    code: 'HARNESS_DEADLINE',
    message: `the run deadline of ${deadlineMs} ms passed before every scenario finished; the report holds what was learned until then`,
    hint: rateLimit
      ? `Raise --deadline-ms to fit every request at --rate-limit ${rateLimit.text} (one each ${rateLimit.intervalMs} ms), or allow a faster rate`
      : 'Raise --deadline-ms, or find out why the target is slow (see the time-outs in the report)',
    party: 'environment',
  };
}

/** The run error of a pass that Ctrl-C or SIGTERM stopped before every request was answered. */
function interrupted(scenarios: ScenarioResult[]): RunError | undefined {
  const cut = scenarios.some((scenario) => scenario.checks.some((check) => check.error?.code === 'HARNESS_INTERRUPTED'));
  if (!cut) return undefined;
  return {
    code: 'HARNESS_INTERRUPTED',
    message: 'the run was interrupted (Ctrl-C or SIGTERM) before every request was answered; the report holds what was recorded until then',
    hint: 'Run it again and let it finish for a verdict',
    party: 'environment',
  };
}

/**
 * Classify, for the diagnosis: each judged exchange with the classification its pass's answers were given before they
 * were judged. Scenario results built by code rather than judged from a pass may hold an exchange without one: it is
 * classified here, alone, so the diagnosis only ever reads a classification.
 */
export function classifiedExchanges(exchanges: Readonly<Record<string, JudgedExchange>>): ClassifiedExchanges {
  return Object.fromEntries(
    Object.entries(exchanges).map(([key, exchange]) => {
      // An exchange judged from a pass holds its classification already: it is read as it is, not copied.
      if (hasClassification(exchange)) return [key, exchange];
      const { request, response } = exchange;
      const classification = classifyAnswer({
        apiPath: apiPathOf(new URL(request.url).pathname),
        status: response.status,
        headers: response.headers,
        bodyText: response.body,
      });
      return [key, { ...exchange, classification }];
    }),
  );
}

const hasClassification = (exchange: JudgedExchange): exchange is ClassifiedExchange => exchange.classification !== undefined;

/**
 * Diagnose: the causes named from the classified answers and what the judge found of them (nothing, for the doctor),
 * for the statuses asked for. A run's report and the doctor both take their causes from here.
 */
export function diagnosisOf(
  requirements: JudgedRequirement[],
  exchanges: ClassifiedExchanges,
  baseUrl: string,
  choices: Pick<RequestChoices, 'statusId'>,
  run: Pick<StackSetup, 'askedToWait'> = {},
): Diagnosis[] {
  const [statusId, ...otherStatusIds] = choices.statusId;
  return diagnose(requirements, exchanges, { baseUrl, statusId, otherStatusIds, ...run });
}

/**
 * Diagnose what a pass's report is built from: its scenarios folded per requirement (the requirements of the pass's
 * profile among them), and the causes named from the classified answers for the statuses the pass asked for.
 */
export function diagnoseFacts(input: ReportInput, choices: Pick<RequestChoices, 'statusId' | 'profile'>): DiagnosedPass {
  const judged = judgedRun(input.scenarios, input.complete, choices.profile);
  // Each scenario holds the count of the run so far: the largest is the run's.
  const askedToWait = Math.max(0, ...input.scenarios.map((scenario) => scenario.rateLimited ?? 0));
  const diagnoses = diagnosisOf(judged.requirements, classifiedExchanges(judged.exchanges), input.target.baseUrl, choices, { askedToWait });
  return assembleDiagnosedPass(input, judged, diagnoses);
}

/** Diagnose: what the judge found of a pass, what kept it from being recorded and what cut it short. */
export function diagnoseJudged({ described, finishedAt, limits, choices, failure }: PassFacts, judged: TargetJudged): DiagnosedPass {
  const cutShort = [deadlinePassed(limits, judged.scenarios), interrupted(judged.scenarios)].filter((error) => error !== undefined);
  const errors = [...judged.errors, ...(failure ? [failure] : []), ...cutShort];
  return diagnoseFacts(
    {
      ...described,
      finishedAt: finishedAt ?? new Date(),
      complete: judged.scenarios.length > 0 && errors.length === 0,
      scenarios: judged.scenarios,
      errors,
    },
    choices,
  );
}

export interface WriteRunOptions {
  /** Warnings of the surroundings (an insecure setting, a plain-HTTP address), for every view to show. */
  warnings?: RunWarning[];
  /** The known failures the run is judged against. */
  baseline?: BaselineInput;
  /** A file the Markdown view is appended to (GitHub Actions' GITHUB_STEP_SUMMARY). */
  stepSummary?: string;
  /** The reports to write (--reports), recording.json and .har among them; every one unless told. */
  reports?: readonly ReportKind[];
  /** The CI's variables, for the job Allure's executor links to. */
  env?: Record<string, string | undefined>;
  /** The folder was made by this command, with nothing put in it yet: nothing to clear (see PutOptions). */
  newFolder?: boolean;
  /** Whether the files go on the folder's list (see PutOptions): a matrix's new target folder is on the matrix's. */
  listed?: boolean;
  /**
   * recording.json and .har are already written (see writeTargetRecording), and these are the leak errors of those the
   * screen refused: the report shows them, and the recording is not made again.
   */
  recordingRefused?: RunError[];
}

/** What recording.json says of a run besides its answers. */
type RecordingHeader = Omit<RecordingInput, 'runs' | 'redact'>;

/**
 * The header of a run's recording: the same from a matrix target's facts, as its answers come in, as from its report
 * once judged, so recording.json is one file whichever thread makes it.
 */
export function recordingHeader(
  { suite, runId, target, options }: Pick<DiagnosedPass, 'suite' | 'runId' | 'target' | 'options'>,
  startedAt: string,
  finishedAt: string,
): RecordingHeader {
  const { baseUrl, embeddedReference } = target;
  return { suite, ...(runId === undefined ? {} : { runId }), target: { baseUrl, embeddedReference }, options, startedAt, finishedAt };
}

/** The passes that recorded answers, for recording.json and .har: none when the recording is not among the reports. */
function recordedRuns(
  passes: readonly { startedAt: Date; recording?: Recording | undefined }[],
  reports: readonly ReportKind[] = REPORT_KINDS,
): { startedAt: Date; recording: Recording }[] {
  if (!reports.includes('recording')) return [];
  return passes.flatMap((pass) => (pass.recording ? [{ startedAt: pass.startedAt, recording: pass.recording }] : []));
}

/**
 * Build and write: the record stage screens what the passes recorded (recording.json and .har), the report is built
 * once with what that and the job summary met (a recording file refused for a secret, a summary that cannot be
 * appended to), and every view is rendered from it and written with the recording, in one go.
 */
export async function writeRun(
  diagnosed: readonly DiagnosedPass[],
  passes: readonly { startedAt: Date; recording?: Recording | undefined }[],
  folder: string,
  scanner: SecretScanner,
  { warnings = [], baseline, stepSummary, newFolder = false, recordingRefused, ...options }: WriteRunOptions = {},
): Promise<{ report: Report; writtenFiles: string[] }> {
  const [first] = diagnosed;
  const last = diagnosed[diagnosed.length - 1];
  if (!first || !last) throw new Error('no pass to write');
  const recording = recordingRefused
    ? { passed: [], refused: recordingRefused }
    : screenedRecording(
        { ...recordingHeader(first, first.startedAt, last.finishedAt), runs: recordedRuns(passes, options.reports) },
        scanner,
      );
  // The job summary is probed first: what it meets is something every view must show.
  const summaryProblem = stepSummary ? await stepSummaryProblem(stepSummary) : undefined;
  const report = buildReport({
    passes: diagnosed,
    ...(baseline ? { baseline } : {}),
    errors: recording.refused,
    warnings: summaryProblem ? [...warnings, summaryProblem] : warnings,
    scanner,
  });
  const written = await writeReports(report, folder, scanner, {
    ...options,
    newFolder,
    besides: recording.passed,
    ...(stepSummary && !summaryProblem ? { stepSummary } : {}),
  });
  return { report, writtenFiles: written };
}
