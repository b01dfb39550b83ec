import { randomBytes } from 'node:crypto';
import type { LoadedBaseline } from '../config/baseline.js';
import type { Config } from '../config/settings.js';
import { prepareOutDir } from '../config/out-dir.js';
import type { TargetOptions } from '../config/targets.js';
import { createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import type { ScenarioResult } from '../judge/scenario-result.js';
import type { RequestChoices } from '../record/settings.js';
import type { Recording } from '../record/recording.js';
import { newRunId } from '../exchange/trace-context.js';
import type { RunningReferenceServer } from '../reference-server/server.js';
import { clearOwnOutputs } from '../report/artifacts.js';
import { cutShort } from '../report/model/repeat.js';
import type { Report } from '../report/model/types.js';
import { recordTarget, type TargetSettings } from '../record/recorder.js';
import type { RecordedRun } from './conclude.js';
import { SpecRunner, type Judged } from '../judge/spec-runner.js';
import { suiteVersion } from '../version.js';
import { suiteFailure, type RunError } from '../errors.js';
import { collectGarbage } from '../judge/memory.js';

/** Builds and writes the reports; loaded while the specs run, so its modules are not on the way to the first request. */
let conclude: Promise<typeof import('./conclude.js')> | undefined;
const loadConclude = (): Promise<typeof import('./conclude.js')> => (conclude ??= import('./conclude.js'));

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

/** Judges one recorded run: the scenarios of that target, and the errors that hit the whole spec run. */
export type JudgeRun = (run: { settings: RequestChoices; label?: string; recording: Recording | Promise<Recording> }) => Promise<Judged>;

/** What a run takes from the command that starts it, besides its settings. */
export interface RunSurroundings {
  /** The variables a run reads beyond its settings: the CI's (GITHUB_STEP_SUMMARY, job links) and NODE_TLS_REJECT_UNAUTHORIZED. */
  env: Record<string, string | undefined>;
  /** Judges the run's recordings when several runs share one spec runner; otherwise the run starts its own. */
  judge?: JudgeRun;
  /**
   * The tokens of the command's other runs (the --compare-to server's): redacted from this run's answers and refused
   * in its artifacts as its own is, since a front both servers share can show one server's token in the other's answers.
   */
  otherTokens?: readonly string[];
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
    ca: options.ca,
    insecure: options.insecure,
    proxyFromEnvironment: viaProxy,
    runId: newRunId(),
  };
}

/** Time a spec run may take: requests give up at the deadline, so a scenario only outlives it if the suite itself hangs. */
export function specTimeoutMs(settings: TargetSettings): number {
  return Math.max(1, settings.deadlineAt - Date.now()) + DEADLINE_GRACE_MS;
}

/**
 * The settings of one more --repeat run, or undefined when the invocation cannot afford a whole one: the request
 * budget and the deadline belong to the invocation, and a run cut short by either would look like a changed verdict.
 */
function nextRepeat(settings: TargetSettings, done: Report[]): TargetSettings | undefined {
  const sent = done.reduce((sum, report) => sum + report.requests.sent, 0);
  const perRun = Math.max(...done.map((report) => report.requests.sent));
  const slowest = Math.max(...done.map((report) => report.durationMs));
  const left = settings.maxRequests - sent;
  if (done.some(cutShort) || left < perRun || Date.now() + slowest > settings.deadlineAt) return undefined;
  return { ...settings, maxRequests: left };
}

/**
 * Records the target (once per --repeat run) while Vitest loads and starts: network time hides behind start-up.
 * Given a judge, the recordings go to it instead: a spec runner that serves several runs at once.
 */
async function recordAndJudge(
  settings: TargetSettings,
  target: Report['target'],
  config: Config,
  hooks: RunHooks,
  startedAt: Date,
  scanner: SecretScanner,
  sharedJudge?: JudgeRun,
): Promise<{ reports: Report[]; recorded: RecordedRun[] }> {
  const reports: Report[] = [];
  const recorded: RecordedRun[] = [];
  let firstRoundSent!: () => void;
  const sent = new Promise<void>((resolve) => (firstRoundSent = resolve));
  let recording = recordTarget(settings, { onFirstRoundSent: firstRoundSent, scanner });
  try {
    let runner: SpecRunner | undefined;
    let judgeRun: JudgeRun;
    if (sharedJudge) judgeRun = sharedJudge;
    else {
      // Vitest loads (about 150 ms of CPU) once the first requests are out, while their answers are on their way.
      await Promise.race([sent, recording.catch(() => undefined)]);
      const own = await SpecRunner.start({
        timeoutMs: specTimeoutMs(settings),
        onScenario: hooks.onScenario,
      });
      // Vitest's start leaves garbage in this heap: collected now, while answers are on their way, it is gone before
      // the spec worker's heap joins this one (the run's peak). A shared judge's runner is collected by its owner.
      collectGarbage();
      runner = own;
      judgeRun = (run) => own.judge([run]);
    }
    try {
      let runSettings = settings;
      for (let run = 0; run < config.repeat; run += 1) {
        const runStartedAt = run === 0 ? startedAt : new Date();
        if (run > 0) {
          const next = nextRepeat(settings, reports);
          if (!next) break;
          runSettings = next;
          recording = recordTarget(runSettings, { scanner });
        }
        // The spec worker starts once the target has answered: started while the answers still come in, its start-up
        // and the HTTP traffic peak together (about 20 MB more RSS at 100 ms a round trip) to save about one round trip.
        let failed: RunError | undefined;
        const made = await recording.catch((error: unknown) => {
          // The judge only learns that there is no recording; the report must say why.
          failed = suiteFailure('recording the target', error);
          return undefined;
        });
        if (made) recorded.push({ startedAt: runStartedAt, recording: made });
        const judging = judgeRun({ settings: runSettings, recording });
        void loadConclude();
        const judged: Judged = await judging;
        const withFailure = failed ? { ...judged, errors: [...judged.errors, failed] } : judged;
        reports.push(await targetReportOf(config, target, runStartedAt, withFailure, settings.runId));
      }
    } finally {
      await runner?.close();
    }
  } catch (error) {
    reports.push(
      await targetReportOf(
        config,
        target,
        startedAt,
        { scenarios: [[]], errors: [suiteFailure('the spec runner', error)] },
        settings.runId,
      ),
    );
  } finally {
    // Nothing may still be talking to the target (or to the embedded server about to close) when the run ends.
    await recording.catch(() => undefined);
  }
  return { reports, recorded };
}

async function targetReportOf(config: Config, target: Report['target'], startedAt: Date, judged: Judged, runId: string): Promise<Report> {
  const { targetReport } = await loadConclude();
  return targetReport({
    options: config,
    baseUrl: target.baseUrl,
    embeddedReference: target.embeddedReference,
    startedAt,
    runId,
    scenarios: judged.scenarios[0] ?? [],
    errors: judged.errors,
  });
}

/**
 * One conformance run (or --repeat runs): reference server if needed, specs, report built, judged against a baseline,
 * written. A run starts a spec runner of its own unless it is given a judge shared with other runs.
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
  try {
    await clearOwnOutputs(config.out);
    // The embedded server is on loopback, where a proxy from the environment could not reach it.
    const settings = targetSettings(config, baseUrl, token, startedAt, reference === undefined);
    const target = { baseUrl, embeddedReference: reference !== undefined };
    // One scanner of the tokens serves the client's redaction, every artifact's screen and the terminal's.
    const scanner = createSecretScanner([token, ...(surroundings.otherTokens ?? [])], [settings.password]);
    const { reports, recorded } = await recordAndJudge(settings, target, config, hooks, startedAt, scanner, surroundings.judge).finally(
      closeReference,
    );
    const { concludeRun } = await loadConclude();
    const { report, writtenFiles } = await concludeRun(reports, config, scanner, surroundings.env, baseline, recorded);
    return { report, writtenFiles, findLeak: (text) => scanner.find(text) };
  } finally {
    // Whatever failed, the embedded server must not keep the process alive.
    await closeReference();
  }
}
