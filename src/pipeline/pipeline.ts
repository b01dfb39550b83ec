import { REPORT_KINDS, type ReportKind } from '../config/reports.js';
import type { TargetOptions } from '../config/targets.js';
import { apiPathOf, classifyAnswer } from '../classify/classify.js';
import { classifyRecording } from '../classify/recording.js';
import { diagnose } from '../diagnosis/diagnose.js';
import type { StackSetup } from '../diagnosis/answers.js';
import type { Diagnosis, ClassifiedExchanges, JudgedRequirement } from '../diagnosis/types.js';
import { suiteFailure, type RunError } from '../errors.js';
import { newRunId } from '../exchange/trace-context.js';
import { Pacer } from '../http/rate-limit.js';
import type { SharedConnections } from '../http/shared-connections.js';
import { JudgeQueue, type Judge, type JudgeQueueOptions, type TargetJudged } from '../judge/judge-queue.js';
import type { JudgedExchange, ScenarioResult } from '../judge/scenario-result.js';
import { recordTarget, type TargetSettings } from '../record/recorder.js';
import type { Plan } from '../record/plan.js';
import type { Recording } from '../record/recording.js';
import { requestChoices, toWrittenChoices, type RequestChoices } from '../record/settings.js';
import { writeRecording } from '../record/write-recording.js';
import type { BaselineInput } from '../report/model/baseline.js';
import { buildReport, assembleDiagnosedPass, judgedRun, type ReportInput } from '../report/model/build.js';
import type { DiagnosedPass, Report, RunWarning } from '../report/model/types.js';
import { stepSummaryProblem, writeReports } from '../report/write.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { suiteVersion } from '../version.js';

/**
 * The one pipeline every command drives: record → classify → judge → diagnose → build → write. A run, its --repeat
 * passes, a matrix's targets, the exporter's probes, a recording judged again and the two servers of --compare-to all
 * go through these functions; only the order and what is written differ.
 */

export type { Judge, JudgeQueue } from '../judge/judge-queue.js';
/** Build: a report from its passes, once; a command that writes its reports builds through writeRun. */
export { buildReport } from '../report/model/build.js';

const MAX_BODY_BYTES = 1024 * 1024;
/** Time the judge gets past the deadline to record what the deadline cut short. */
const DEADLINE_GRACE_MS = 5000;

/** A target a command tests: where it is, the token it sends, and the options its requests and report follow. */
export interface PlannedTarget {
  baseUrl: string;
  token: string;
  options: TargetOptions;
  /** Its name in a matrix or the exporter: the label its scenarios carry when a spec run judges several. */
  name?: string;
  /** The embedded reference server stands in for a target the user did not give. */
  embeddedReference?: boolean;
}

/** One pass over a target: what it recorded, or why nothing could be recorded. */
export interface Pass {
  target: PlannedTarget;
  startedAt: Date;
  /** When the answers were in; when the pass is judged, unless a recording is judged again. */
  finishedAt?: Date;
  /** What its requests chose: all the judge is handed of the target. */
  choices: RequestChoices;
  /** The trace id every request of the pass carried in its traceparent header. */
  runId?: string;
  recording?: Recording;
  failure?: RunError;
}

/** A pass and what the judge found of it: its scenarios, and the errors of the spec run that judged it. */
export interface JudgedPass {
  pass: Pass;
  judged: TargetJudged;
}

export function targetSettings(target: PlannedTarget, startedAt: Date): TargetSettings {
  const { options } = target;
  return {
    baseUrl: target.baseUrl,
    token: target.token,
    password: options.password,
    statusId: options.statusId,
    lang: options.lang,
    missingLang: options.missingLang,
    ...(options.profile ? { profile: options.profile } : {}),
    timeoutMs: options.timeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
    maxRequests: options.maxRequests,
    userAgent: `ticketing-conformance/${suiteVersion}`,
    deadlineAt: startedAt.getTime() + options.deadlineMs,
    concurrency: options.concurrency,
    // One pace for every pass over the target: the passes of --repeat share the settings made here.
    ...(options.rateLimit ? { pacer: new Pacer(options.rateLimit) } : {}),
    ca: options.ca,
    insecure: options.insecure,
    cert: options.cert,
    key: options.key,
    keyPassphrase: options.keyPassphrase,
    // The embedded server is on loopback, where a proxy from the environment could not reach it.
    proxyFromEnvironment: target.embeddedReference !== true,
    runId: newRunId(),
  };
}

/**
 * The judge a command's passes share: the one it was given (the command's, shared with other runs), or one of its
 * own, started when first needed or warmed up, which the command closes when done.
 */
export function judgeFor(given: Judge | undefined, options: JudgeQueueOptions): { judge: Judge; own?: JudgeQueue } {
  if (given) return { judge: given };
  const own = startJudge(options);
  return { judge: own, own };
}

/** A judge of the caller's own, for a lifetime longer than one command (the exporter's, a self-test worker's). */
export function startJudge(options: JudgeQueueOptions): JudgeQueue {
  return new JudgeQueue(options);
}

/** The spec-run time-out that outlasts the longest deadline of the targets: a scenario only outlives it if the suite hangs. */
export function judgeTimeoutMs(targets: readonly { options: Pick<TargetOptions, 'deadlineMs'> }[]): number {
  return Math.max(0, ...targets.map((target) => target.options.deadlineMs)) + DEADLINE_GRACE_MS;
}

export interface PassOptions {
  startedAt?: Date;
  /** The pass's own settings (a --repeat pass gets what is left of the request budget); the target's by default. */
  settings?: TargetSettings;
  /** Told once the first round of requests is out: the judge's start-up can hide behind their answers. */
  onFirstRoundSent?: () => void;
  /** The requests to send: a conformance run's unless told otherwise (the doctor's few). */
  plan?: Plan;
  /** Told once the pass is recorded: what comes after the judging can load while the other thread judges. */
  onRecorded?: () => void;
  /** Ctrl-C or SIGTERM: the pass stops sending, and what it recorded until then is judged. */
  interruption?: AbortSignal;
  /** Waits for the pass's turn to record (a matrix's --target-concurrency); it records at once otherwise. */
  recordingTurn?: <T>(record: () => Promise<T>) => Promise<T>;
  /** Connections the command's targets share (a matrix's). */
  connections?: SharedConnections;
}

/** Record: one pass over the target. A failure to record is kept, for the judge and the report to say. */
export async function recordPass(
  target: PlannedTarget,
  scanner: SecretScanner,
  {
    startedAt = new Date(),
    settings = targetSettings(target, startedAt),
    onFirstRoundSent,
    plan,
    interruption,
    connections,
  }: PassOptions = {},
): Promise<Pass> {
  const pass = { target, startedAt, choices: requestChoices(settings), runId: settings.runId };
  try {
    const recording = await recordTarget(settings, {
      scanner,
      ...(onFirstRoundSent ? { onFirstRoundSent } : {}),
      ...(plan ? { plan } : {}),
      ...(interruption ? { interruption } : {}),
      ...(connections ? { connections } : {}),
    });
    return { ...pass, recording };
  } catch (error) {
    onFirstRoundSent?.();
    return { ...pass, failure: suiteFailure('recording the target', error) };
  }
}

/**
 * Classify and judge: every answer of the pass classified once, then its scenarios judged from that classification by
 * the judge the command shares among its passes.
 */
export async function judgePass(pass: Pass, judge: Judge): Promise<JudgedPass> {
  const { recording, choices } = pass;
  const label = pass.target.name === undefined ? {} : { label: pass.target.name };
  const judged = recording
    ? await judge.judge({ settings: choices, ...label, recording, classification: classifyRecording(recording, choices.statusId) })
    : await judge.judge({ settings: choices, ...label, failure: pass.failure?.message ?? 'nothing was recorded' });
  return { pass, judged: pass.failure ? { ...judged, errors: [...judged.errors, pass.failure] } : judged };
}

function deadlinePassed({ deadlineMs, rateLimit }: TargetOptions, scenarios: ScenarioResult[]): RunError | undefined {
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
      const { request, response } = exchange;
      const classification =
        exchange.classification ??
        classifyAnswer({
          apiPath: apiPathOf(new URL(request.url).pathname),
          status: response.status,
          headers: response.headers,
          bodyText: response.body,
        });
      return [key, { ...exchange, classification }];
    }),
  );
}

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

/** Diagnose: what the judge found of a pass and what cut it short, with the choices the pass itself made. */
export function diagnosePass({ pass, judged }: JudgedPass): DiagnosedPass {
  const { target, startedAt, runId, choices } = pass;
  const { options } = target;
  const cutShort = [deadlinePassed(options, judged.scenarios), interrupted(judged.scenarios)].filter((error) => error !== undefined);
  const errors = [...judged.errors, ...cutShort];
  return diagnoseFacts(
    {
      suite: { name: 'ticketing-conformance', version: suiteVersion },
      ...(runId ? { runId } : {}),
      target: { baseUrl: target.baseUrl, embeddedReference: target.embeddedReference === true },
      options: {
        ...toWrittenChoices(options),
        ...(options.missingLang ? { missingLang: options.missingLang } : {}),
        ...(options.profile ? { profile: options.profile } : {}),
        strict: options.strict,
        timeoutMs: options.timeoutMs,
        maxRequests: options.maxRequests,
        repeat: options.repeat,
        deadlineMs: options.deadlineMs,
        concurrency: options.concurrency,
        ...(options.rateLimit ? { rateLimit: options.rateLimit.text } : {}),
        ...(options.ca ? { ca: options.ca.path } : {}),
        ...(options.insecure ? { insecure: true } : {}),
        ...(options.cert ? { cert: options.cert.path } : {}),
      },
      startedAt,
      finishedAt: pass.finishedAt ?? new Date(),
      complete: judged.scenarios.length > 0 && errors.length === 0,
      scenarios: judged.scenarios,
      errors,
    },
    choices,
  );
}

/** Record, classify, judge, diagnose: one pass over a target and what it found, nothing built or written. */
export async function runPass(
  target: PlannedTarget,
  judge: Judge,
  scanner: SecretScanner,
  { recordingTurn = (record) => record(), ...options }: PassOptions = {},
): Promise<{ pass: Pass; diagnosed: DiagnosedPass }> {
  const pass = await recordingTurn(() => recordPass(target, scanner, options));
  options.onRecorded?.();
  return { pass, diagnosed: diagnosePass(await judgePass(pass, judge)) };
}

/** Record to build: one pass over a target and its report, unsealed as nothing is written (the exporter's probe). */
export async function onePassReport(
  target: PlannedTarget,
  judge: Judge,
  scanner: SecretScanner,
  options: PassOptions = {},
): Promise<Report> {
  const { diagnosed } = await runPass(target, judge, scanner, options);
  return buildReport({ passes: [diagnosed], scanner, written: false });
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
  /** The folder is new to this command, with nothing put in it yet: nothing to clear, no list to read. */
  newFolder?: boolean;
}

/**
 * Build and write: the record stage writes what the passes recorded (recording.json and .har), the report is built
 * once with what that and the job summary met (a recording file refused for a secret, a summary that cannot be
 * appended to), and every view is written from it.
 */
export async function writeRun(
  diagnosed: readonly DiagnosedPass[],
  passes: readonly Pick<Pass, 'startedAt' | 'recording'>[],
  folder: string,
  scanner: SecretScanner,
  { warnings = [], baseline, stepSummary, newFolder = false, ...options }: WriteRunOptions = {},
): Promise<{ report: Report; writtenFiles: string[] }> {
  const [first] = diagnosed;
  const last = diagnosed[diagnosed.length - 1];
  if (!first || !last) throw new Error('no pass to write');
  const recordingChosen = (options.reports ?? REPORT_KINDS).includes('recording');
  const recorded = recordingChosen
    ? passes.flatMap((pass) => (pass.recording ? [{ startedAt: pass.startedAt, recording: pass.recording }] : []))
    : [];
  const recording = await writeRecording(
    folder,
    {
      suite: first.suite,
      ...(first.runId === undefined ? {} : { runId: first.runId }),
      target: { baseUrl: first.target.baseUrl, embeddedReference: first.target.embeddedReference },
      options: first.options,
      startedAt: first.startedAt,
      finishedAt: last.finishedAt,
      runs: recorded,
    },
    scanner,
    { newFolder },
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
    // The recording's files, if written, started the folder's list.
    newFolder: newFolder && recording.written.length === 0,
    ...(stepSummary && !summaryProblem ? { stepSummary } : {}),
  });
  return { report, writtenFiles: [...written, ...recording.written] };
}
