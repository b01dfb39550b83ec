import { randomBytes } from 'node:crypto';
import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/load.js';
import type { TargetOptions } from '../config/targets.js';
import { findLeak } from '../harness/redact.js';
import type { ScenarioResult } from '../harness/scenario-result.js';
import type { TargetSettings } from '../harness/settings.js';
import { startReferenceServer, type RunningReferenceServer } from '../reference-server/server.js';
import { applyBaseline } from '../report/baseline.js';
import { buildReport } from '../report/build.js';
import { mergeRepeatedRuns } from '../report/repeat.js';
import { suiteFailure } from '../report/suite-error.js';
import type { Report, RunError } from '../report/types.js';
import { clearOwnOutputs, writeReports } from '../report/write.js';
import { recordTarget } from './record.js';
import { SpecRunner, type Judged } from './spec-runner.js';
import { suiteVersion } from './version.js';
import { safetyWarnings } from './warnings.js';

const MAX_BODY_BYTES = 1024 * 1024;
/** Time the spec runner gets past the deadline to record what the deadline cut short. */
export const DEADLINE_GRACE_MS = 5000;

export interface RunResult {
  report: Report;
  writtenFiles: string[];
  /** Names the secret a text would expose (without repeating it), so the terminal output is held to the artifacts' rule. */
  findLeak(text: string): string | undefined;
}

export interface RunHooks {
  /** Told once, before any request, when the embedded reference server stands in for a target. */
  onReferenceServer?(url: string): void;
  /** Told after each scenario, for a live progress line. */
  onScenario?(result: ScenarioResult, done: number): void;
}

export function targetSettings(options: TargetOptions, baseUrl: string, token: string, startedAt: Date, viaProxy: boolean): TargetSettings {
  return {
    baseUrl,
    token,
    password: options.password,
    statusId: options.statusId,
    lang: options.lang,
    missingLang: options.missingLang,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
    maxRequests: options.maxRequests,
    userAgent: `ticketing-conformance/${suiteVersion}`,
    deadlineAt: startedAt.getTime() + options.deadlineMs,
    concurrency: options.concurrency,
    ca: options.ca?.pem,
    insecure: options.insecure,
    proxyFromEnvironment: viaProxy,
  };
}

/** Time a spec run may take: requests give up at the deadline, so a scenario only outlives it if the suite itself hangs. */
export function specTimeoutMs(settings: TargetSettings): number {
  return Math.max(1, settings.deadlineAt - Date.now()) + DEADLINE_GRACE_MS;
}

export interface TargetReportInput {
  options: TargetOptions;
  baseUrl: string;
  embeddedReference: boolean;
  startedAt: Date;
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

export function targetReport(input: TargetReportInput): Report {
  const { options } = input;
  const deadlineError = deadlinePassed(options.deadlineMs, input.scenarios);
  const errors = deadlineError ? [...input.errors, deadlineError] : input.errors;
  return buildReport({
    suite: { name: 'ticketing-conformance', version: suiteVersion },
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
    finishedAt: new Date(),
    complete: input.scenarios.length > 0 && errors.length === 0,
    scenarios: input.scenarios,
    errors,
  });
}

/** Records the target (once per --repeat run) while Vitest starts and loads the specs: network time hides behind start-up. */
async function recordAndJudge(
  settings: TargetSettings,
  target: Report['target'],
  config: Config,
  hooks: RunHooks,
  startedAt: Date,
): Promise<Report[]> {
  const reports: Report[] = [];
  let recording = recordTarget(settings);
  try {
    const runner = await SpecRunner.start({
      timeoutMs: specTimeoutMs(settings),
      onScenario: hooks.onScenario,
    });
    try {
      for (let run = 0; run < config.repeat; run += 1) {
        const runStartedAt = run === 0 ? startedAt : new Date();
        if (run > 0) recording = recordTarget(settings);
        const judged: Judged = await runner.judge([{ settings, recording }]);
        reports.push(targetReportOf(config, target, runStartedAt, judged));
      }
    } finally {
      await runner.close();
    }
  } catch (error) {
    reports.push(targetReportOf(config, target, startedAt, { scenarios: [[]], errors: [suiteFailure('the spec runner', error)] }));
  } finally {
    // Nothing may still be talking to the target (or to the embedded server about to close) when the run ends.
    await recording.catch(() => undefined);
  }
  return reports;
}

function targetReportOf(config: Config, target: Report['target'], startedAt: Date, judged: Judged): Report {
  return targetReport({
    options: config,
    baseUrl: target.baseUrl,
    embeddedReference: target.embeddedReference,
    startedAt,
    scenarios: judged.scenarios[0] ?? [],
    errors: judged.errors,
  });
}

/** One conformance run (or --repeat runs): reference server if needed, specs, report built, judged against a baseline, written. */
export async function runConformance(config: Config, hooks: RunHooks = {}, baseline?: LoadedBaseline): Promise<RunResult> {
  const startedAt = new Date();
  let reference: RunningReferenceServer | undefined;
  let token = config.token ?? '';
  let baseUrl = config.baseUrl;
  if (!baseUrl) {
    token = config.token ?? randomBytes(16).toString('hex');
    reference = await startReferenceServer({ token });
    baseUrl = reference.url;
    hooks.onReferenceServer?.(baseUrl);
  }
  await clearOwnOutputs(config.out);
  // The embedded server is on loopback, where a proxy from the environment could not reach it.
  const settings = targetSettings(config, baseUrl, token, startedAt, reference === undefined);
  const target = { baseUrl, embeddedReference: reference !== undefined };
  const reports = await recordAndJudge(settings, target, config, hooks, startedAt).finally(() => reference?.close());
  const report = mergeRepeatedRuns(reports);
  if (baseline) applyBaseline(report, baseline);
  const warnings = safetyWarnings({ baseUrl: config.baseUrl, insecure: config.insecure });
  if (warnings.length > 0) report.warnings = warnings;
  const writtenFiles = await writeReports(report, config.out, token, { stepSummary: process.env.GITHUB_STEP_SUMMARY });
  return { report, writtenFiles, findLeak: (text) => findLeak(text, token) };
}
