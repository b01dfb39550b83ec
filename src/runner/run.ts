import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import type { Config } from '../config/load.js';
import type { ScenarioResult } from '../harness/scenario-result.js';
import type { TargetSettings } from '../harness/settings.js';
import { packageRoot } from '../paths.js';
import { startReferenceServer, type RunningReferenceServer } from '../reference-server/server.js';
import { buildReport } from '../report/build.js';
import { mergeRepeatedRuns } from '../report/repeat.js';
import type { Report, RunError } from '../report/types.js';
import { ALLURE_DIR, clearOwnOutputs, writeReports } from '../report/write.js';
import { ScenarioCollector } from './collector.js';
import { suiteVersion } from './version.js';

const MAX_BODY_BYTES = 1024 * 1024;

export interface RunResult {
  report: Report;
  writtenFiles: string[];
}

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
        testTimeout: settings.timeoutMs * 4 + 5000,
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
  const writtenFiles = await writeReports(report, config.out, token);
  return { report, writtenFiles };
}
