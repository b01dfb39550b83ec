import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/load.js';
import type { TargetOptions } from '../config/targets.js';
import type { ScenarioResult } from '../harness/scenario-result.js';
import type { TargetSettings } from '../harness/settings.js';
import { startReferenceServer, type RunningReferenceServer } from '../reference-server/server.js';
import { applyBaseline } from '../report/baseline.js';
import { buildReport } from '../report/build.js';
import type { Report, RunError } from '../report/types.js';
import { ALLURE_DIR, clearOwnOutputs, writeReports } from '../report/write.js';
import { recordTarget } from './record.js';
import { SpecRunner, type Judged } from './spec-runner.js';
import { suiteFailure } from '../report/suite-error.js';
import { suiteVersion } from './version.js';

const MAX_BODY_BYTES = 1024 * 1024;

export interface RunResult {
  report: Report;
  writtenFiles: string[];
}

export interface RunHooks {
  /** Told once, before any request, when the embedded reference server stands in for a target. */
  onReferenceServer?(url: string): void;
}

export function targetSettings(options: TargetOptions, baseUrl: string, token: string): TargetSettings {
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
  };
}

export interface TargetReportInput {
  options: TargetOptions;
  baseUrl: string;
  embeddedReference: boolean;
  startedAt: Date;
  scenarios: ScenarioResult[];
  errors: RunError[];
}

export function targetReport(input: TargetReportInput): Report {
  const { options } = input;
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
    },
    startedAt: input.startedAt,
    finishedAt: new Date(),
    complete: input.scenarios.length > 0 && input.errors.length === 0,
    scenarios: input.scenarios,
    errors: input.errors,
  });
}

/** Records the target while Vitest starts and loads the specs: network time hides behind start-up time. */
async function recordAndJudge(settings: TargetSettings, outDir: string): Promise<Judged> {
  const recording = recordTarget(settings);
  try {
    const runner = await SpecRunner.start({ allureDir: resolve(outDir, ALLURE_DIR), timeoutMs: settings.timeoutMs });
    try {
      return await runner.judge([{ settings, recording }]);
    } finally {
      await runner.close();
    }
  } catch (error) {
    return { scenarios: [[]], errors: [suiteFailure('the spec runner', error)] };
  } finally {
    // Nothing may still be talking to the target (or to the embedded server about to close) when the run ends.
    await recording.catch(() => undefined);
  }
}

/** One conformance run: reference server if needed, specs, report built (and judged against a baseline) and written. */
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
  const judged = await recordAndJudge(targetSettings(config, baseUrl, token), config.out).finally(() => reference?.close());
  const report = targetReport({
    options: config,
    baseUrl,
    embeddedReference: reference !== undefined,
    startedAt,
    scenarios: judged.scenarios[0] ?? [],
    errors: judged.errors,
  });
  if (baseline) applyBaseline(report, baseline);
  const writtenFiles = await writeReports(report, config.out, token);
  return { report, writtenFiles };
}
