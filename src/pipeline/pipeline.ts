import type { TargetOptions } from '../config/targets.js';
import { suiteFailure, type RunError } from '../errors.js';
import { newRunId } from '../exchange/trace-context.js';
import { Pacer } from '../http/rate-limit.js';
import type { SharedConnections } from '../http/shared-connections.js';
import { JudgeQueue, type Judge, type JudgeQueueOptions, type TargetJudged } from '../judge/judge-queue.js';
import { recordTarget, type TargetSettings } from '../record/recorder.js';
import type { Plan } from '../record/plan.js';
import type { Recording } from '../record/recording.js';
import { requestChoices, toWrittenChoices, type RequestChoices } from '../record/settings.js';
import { buildReport } from '../report/model/build.js';
import type { DiagnosedPass, Report } from '../report/model/types.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { suiteVersion } from '../version.js';
import { diagnoseJudged, type PassFacts } from './reporting.js';

/**
 * The one pipeline every command drives: record → classify → judge → diagnose → build → write. A run, its --repeat
 * passes, a matrix's targets, the exporter's probes, a recording judged again and the two servers of --compare-to all
 * go through these functions; only the order and what is written differ.
 */

export type { Judge, JudgeQueue } from '../judge/judge-queue.js';
/** The most recordings one spec run judges. */
export { MAX_BATCH } from '../judge/judge-queue.js';
/** Build: a report from its passes, once; a command that writes its reports builds through writeRun. */
export { buildReport } from '../report/model/build.js';
/** Diagnose, build and write: the stages after judging, in a module the judging thread loads too. */
export { classifiedExchanges, diagnoseFacts, diagnosisOf, writeRun } from './reporting.js';

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
  /** When the answers were in (a matrix's target, a recording judged again); unset, when the pass is judged. */
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
 * the judge the command shares among its passes. Both run in the judging thread (in-judging-thread.ts), where the
 * recording goes anyway; `finish` is what that thread is to do with the pass once judged (a matrix's reports).
 */
export async function judgePass(pass: Pass, judge: Judge, finish?: unknown): Promise<JudgedPass> {
  const { recording, choices } = pass;
  const label = pass.target.name === undefined ? {} : { label: pass.target.name };
  const then = finish === undefined ? {} : { finish };
  const judged = recording
    ? await judge.judge({ settings: choices, ...label, ...then, recording })
    : await judge.judge({ settings: choices, ...label, ...then, failure: pass.failure?.message ?? 'nothing was recorded' });
  return { pass, judged };
}

/** What a pass's report says of it besides what the judge found, from the pass's target and the choices it made. */
export function passFacts(pass: Pass): PassFacts {
  const { target, startedAt, runId, choices, finishedAt, failure } = pass;
  const { options } = target;
  return {
    described: {
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
    },
    ...(finishedAt ? { finishedAt } : {}),
    limits: { deadlineMs: options.deadlineMs, ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}) },
    choices,
    ...(failure ? { failure } : {}),
  };
}

/** Diagnose: what the judge found of a pass and what cut it short, with the choices the pass itself made. */
export function diagnosePass({ pass, judged }: JudgedPass): DiagnosedPass {
  return diagnoseJudged(passFacts(pass), judged);
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
