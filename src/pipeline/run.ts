import { randomBytes } from 'node:crypto';
import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/settings.js';
import { prepareOutDir } from '../config/out-dir.js';
import { safetyWarnings } from '../config/warnings.js';
import { clearOwnOutputs } from '../files/artifacts.js';
import type { Judge } from '../judge/judge-queue.js';
import type { ScenarioResult } from '../judge/scenario-result.js';
import type { TargetSettings } from '../record/recorder.js';
import type { RunningReferenceServer } from '../reference-server/server.js';
import { loadViews } from '../report/write.js';
import { cutShort } from '../report/model/repeat.js';
import type { DiagnosedPass, Report } from '../report/model/types.js';
import { clientKeySecrets, createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import {
  judgeFor,
  judgeTimeoutMs,
  runPass,
  targetSettings,
  writeRun,
  type Pass,
  type PassOptions,
  type PlannedTarget,
} from './pipeline.js';

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

/** What a run takes from the command that starts it, besides its settings. */
export interface RunSurroundings {
  /** The variables a run reads beyond its settings: the CI's (GITHUB_STEP_SUMMARY, job links) and NODE_TLS_REJECT_UNAUTHORIZED. */
  env: Record<string, string | undefined>;
  /** The judge the command shares among its runs; otherwise the run starts its own. */
  judge?: Judge;
  /**
   * The tokens of the command's other runs (the --compare-to server's): redacted from this run's answers and refused
   * in its artifacts as its own is, since a front both servers share can show one server's token in the other's answers.
   */
  otherTokens?: readonly string[];
  /** Aborted on Ctrl-C or SIGTERM: the run stops sending, judges what it recorded and writes reports marked cut short. */
  interruption?: AbortSignal;
}

/**
 * The settings of one more --repeat pass, or undefined when the invocation cannot afford a whole one: the request
 * budget and the deadline belong to the invocation, and a pass cut short by either would look like a changed verdict.
 */
function nextRepeat(settings: TargetSettings, done: DiagnosedPass[]): TargetSettings | undefined {
  const sent = done.reduce((sum, report) => sum + report.requests.sent, 0);
  const perRun = Math.max(...done.map((report) => report.requests.sent));
  const slowest = Math.max(...done.map((report) => report.durationMs));
  const left = settings.maxRequests - sent;
  if (done.some(cutShort) || left < perRun || Date.now() + slowest > settings.deadlineAt) return undefined;
  return { ...settings, maxRequests: left };
}

/** The passes of a run (one, or --repeat's), each recorded, judged and diagnosed in turn. */
async function passesOver(
  target: PlannedTarget,
  config: Config,
  judge: Judge,
  scanner: SecretScanner,
  startedAt: Date,
  { onFirstRoundSent, interruption }: Pick<PassOptions, 'onFirstRoundSent' | 'interruption'>,
): Promise<{ diagnosed: DiagnosedPass[]; passes: Pass[] }> {
  const settings = targetSettings(target, startedAt);
  const diagnosed: DiagnosedPass[] = [];
  const passes: Pass[] = [];
  for (let index = 0; index < config.repeat; index += 1) {
    const passSettings = index === 0 ? settings : nextRepeat(settings, diagnosed);
    if (!passSettings) break;
    const { pass, diagnosed: found } = await runPass(target, judge, scanner, {
      startedAt: index === 0 ? startedAt : new Date(),
      settings: passSettings,
      ...(onFirstRoundSent ? { onFirstRoundSent } : {}),
      ...(interruption ? { interruption } : {}),
      onRecorded: () => loadViews(config.reports),
    });
    passes.push(pass);
    diagnosed.push(found);
  }
  return { diagnosed, passes };
}

/**
 * One conformance run (or --repeat passes): reference server if needed, then the pipeline, the passes merged, judged
 * against a baseline, written. A run starts a judge of its own unless the command gives it one shared with other runs.
 */
export async function runConformance(
  config: Config,
  hooks: RunHooks = {},
  baseline?: LoadedBaseline,
  surroundings: RunSurroundings = { env: process.env },
): Promise<RunResult> {
  const startedAt = new Date();
  // An output folder that cannot take the reports is a configuration error, found before the first request.
  await prepareOutDir(config.out);
  let reference: RunningReferenceServer | undefined;
  let token = config.token ?? '';
  let baseUrl = config.baseUrl;
  if (!baseUrl) {
    token = config.token ?? randomBytes(16).toString('hex');
    const { startReferenceServer } = await import('../reference-server/server.js');
    reference = await startReferenceServer({ token });
    baseUrl = reference.url;
    hooks.onReferenceServer?.(baseUrl);
  }
  let closing: Promise<void> | undefined;
  const closeReference = (): Promise<void> => (closing ??= reference?.close() ?? Promise.resolve());
  const target: PlannedTarget = { baseUrl, token, options: config, embeddedReference: reference !== undefined };
  const { judge, own } = judgeFor(surroundings.judge, {
    timeoutMs: judgeTimeoutMs([target]),
    ...(hooks.onScenario ? { onScenario: hooks.onScenario } : {}),
  });
  try {
    await clearOwnOutputs(config.out);
    // One scanner of the tokens serves the client's redaction, every artifact's screen and the terminal's.
    const scanner = createSecretScanner([token, ...(surroundings.otherTokens ?? [])], [config.password], clientKeySecrets(config));
    // The judging thread starts (unless the CLI started it first) once the first requests are out, while their answers
    // are on their way.
    const onFirstRoundSent = (): void => own?.warmUp();
    const { diagnosed, passes } = await passesOver(target, config, judge, scanner, startedAt, {
      onFirstRoundSent,
      ...(surroundings.interruption ? { interruption: surroundings.interruption } : {}),
    }).finally(closeReference);
    // Every pass is judged: a judging thread of the run's own goes now, and its memory with it, before the reports
    // are built (a run's peak came while both were alive).
    await own?.close();
    const written = await writeRun(diagnosed, passes, config.out, scanner, {
      ...(baseline ? { baseline: { baseline } } : {}),
      warnings: safetyWarnings({ baseUrl: config.baseUrl, insecure: config.insecure }, surroundings.env),
      ...(surroundings.env.GITHUB_STEP_SUMMARY ? { stepSummary: surroundings.env.GITHUB_STEP_SUMMARY } : {}),
      env: surroundings.env,
      reports: config.reports,
    });
    return { ...written, findLeak: (text) => scanner.find(text) };
  } finally {
    // Whatever failed, neither the embedded server nor the judge may keep the process alive.
    await Promise.all([closeReference(), own?.close()]);
  }
}
