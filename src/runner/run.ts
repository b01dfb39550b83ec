import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import type { Config } from '../config/load.js';
import type { ScenarioResult } from '../harness/scenario-result.js';
import type { TargetSettings } from '../harness/settings.js';
import { packageRoot } from '../paths.js';
import { startReferenceServer, type RunningReferenceServer } from '../reference-server/server.js';
import { findLeak } from '../harness/redact.js';
import { buildReport } from '../report/build.js';
import { mergeRepeatedRuns } from '../report/repeat.js';
import type { Report, RunError } from '../report/types.js';
import { ALLURE_DIR, clearOwnOutputs, writeReports } from '../report/write.js';
import { ScenarioCollector } from './collector.js';
import { suiteVersion } from './version.js';
import { safetyWarnings } from './warnings.js';

const MAX_BODY_BYTES = 1024 * 1024;

export interface RunResult {
  report: Report;
  writtenFiles: string[];
  /** Names the secret a text would expose (without repeating it), so the terminal output is held to the artifacts' rule. */
  findLeak(text: string): string | undefined;
}

/** Time the spec runner gets past the deadline to record what the deadline cut short. */
const DEADLINE_GRACE_MS = 5000;

export interface RunHooks {
  /** Told once, before any request, when the embedded reference server stands in for a target. */
  onReferenceServer?(url: string): void;
  /** Told after each scenario, for a live progress line. */
  onScenario?(result: ScenarioResult, done: number): void;
}

async function runSpecs(
  settings: TargetSettings,
  outDir: string,
  hooks: RunHooks,
): Promise<{ collector: ScenarioCollector; errors: RunError[] }> {
  const collector = new ScenarioCollector(hooks.onScenario);
  const errors: RunError[] = [];
  try {
    const vitest = await startVitest(
      'test',
      [],
      {
        config: false,
        root: packageRoot,
        dir: join(packageRoot, 'specs'),
        include: ['**/*.spec.ts'],
        watch: false,
        // One worker that keeps modules across spec files, so every request is sent once and shared.
        pool: 'threads',
        isolate: false,
        maxWorkers: 1,
        fileParallelism: false,
        reporters: [collector, ['allure-vitest/reporter', { resultsDir: resolve(outDir, ALLURE_DIR) }]],
        provide: { conformance: settings },
        // Requests give up at the deadline, so a scenario only outlives it if the suite itself hangs.
        testTimeout: Math.max(1, settings.deadlineAt - Date.now()) + DEADLINE_GRACE_MS,
      },
      { logLevel: 'silent' },
    );
    await vitest.close();
  } catch (error) {
    errors.push({
      code: 'HARNESS_INTERNAL',
      message: `the spec runner failed: ${error instanceof Error ? error.message : String(error)}`,
      hint: 'This is a bug in the suite; please report it',
      party: 'suite',
    });
  }
  return { collector, errors };
}

async function runOnce(settings: TargetSettings, config: Config, target: Report['target'], hooks: RunHooks): Promise<Report> {
  const startedAt = new Date();
  const previousExitCode = process.exitCode;
  const { collector, errors } = await runSpecs(settings, config.out, hooks);
  // Vitest marks the process failed when a spec fails; the CLI decides the exit code from the report instead.
  process.exitCode = previousExitCode;
  const deadlineError = deadlinePassed(config.deadlineMs, collector);
  if (deadlineError) errors.push(deadlineError);
  return buildReport({
    suite: { name: 'ticketing-conformance', version: suiteVersion },
    target,
    options: {
      statusId: config.statusId,
      ...(config.lang ? { lang: config.lang } : {}),
      ...(config.missingLang ? { missingLang: config.missingLang } : {}),
      strict: config.strict,
      timeoutMs: config.timeoutMs,
      maxRequests: config.maxRequests,
      repeat: config.repeat,
      deadlineMs: config.deadlineMs,
      concurrency: config.concurrency,
      ...(config.ca ? { ca: config.ca.path } : {}),
      ...(config.insecure ? { insecure: true } : {}),
    },
    startedAt,
    finishedAt: new Date(),
    complete: collector.scenarios.length > 0 && errors.length === 0 && collector.errors.length === 0,
    scenarios: collector.scenarios,
    errors: [...errors, ...collector.errors],
  });
}

/** One conformance run (or --repeat runs): reference server if needed, specs, report built and written. */
export async function runConformance(config: Config, hooks: RunHooks = {}): Promise<RunResult> {
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
  const settings: TargetSettings = {
    baseUrl,
    token,
    password: config.password,
    statusId: config.statusId,
    lang: config.lang,
    missingLang: config.missingLang,
    timeoutMs: config.timeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
    maxRequests: config.maxRequests,
    userAgent: `ticketing-conformance/${suiteVersion}`,
    deadlineAt: startedAt.getTime() + config.deadlineMs,
    concurrency: config.concurrency,
    ca: config.ca?.pem,
    insecure: config.insecure,
    // The embedded server is on loopback, where a proxy from the environment could not reach it.
    proxyFromEnvironment: reference === undefined,
  };

  await clearOwnOutputs(config.out);
  const target = { baseUrl, embeddedReference: reference !== undefined };
  const reports: Report[] = [];
  try {
    for (let run = 0; run < config.repeat; run += 1) reports.push(await runOnce(settings, config, target, hooks));
  } finally {
    await reference?.close();
  }
  const report = mergeRepeatedRuns(reports);
  const warnings = safetyWarnings({ baseUrl: config.baseUrl, insecure: config.insecure });
  if (warnings.length > 0) report.warnings = warnings;
  const writtenFiles = await writeReports(report, config.out, token);
  return { report, writtenFiles, findLeak: (text) => findLeak(text, token) };
}

function deadlinePassed(deadlineMs: number, collector: ScenarioCollector): RunError | undefined {
  const cut = collector.scenarios.some((scenario) => scenario.checks.some((check) => check.error?.code === 'HARNESS_DEADLINE'));
  if (!cut) return undefined;
  return {
    code: 'HARNESS_DEADLINE',
    message: `the run deadline of ${deadlineMs} ms passed before every scenario finished; the report holds what was learned until then`,
    hint: 'Raise --deadline-ms, or find out why the target is slow (see the time-outs in the report)',
    party: 'environment',
  };
}
