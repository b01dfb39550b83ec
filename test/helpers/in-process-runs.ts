import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { loadConfig } from '../../src/config/load.js';
import type { ReportKind } from '../../src/config/reports.js';
import { loadTargets } from '../../src/config/targets.js';
import { runMatrix, type MatrixResult } from '../../src/pipeline/matrix.js';
import { startJudge } from '../../src/pipeline/pipeline.js';
import { collectOutput, withOut, type CliOutput, type CliRun } from './run-cli.js';
import { SAFETY_NET_MS, TEST_SAFETY_NET_MS, removeFolder } from './safety-net.js';

/**
 * The spec runner of this worker process, shared by every file it runs (the self-tests' workers keep their modules
 * from file to file): Vitest and the specs load once per worker, not once per file. The runs that wait while a batch
 * is judged go together in the next, as the targets of a matrix do. It ends with the worker. Its bound is the safety
 * net's, not one run's deadline: on a loaded machine a full batch can take longer to judge than one run may.
 */
const processJudge = startJudge({ timeoutMs: SAFETY_NET_MS });

/**
 * A whole file's runs are recorded at once in this process, beside the loopback servers they test: on a loaded machine
 * an answer can wait its turn longer than a request's default time-out, or a run longer than its default deadline.
 * Both are the safety net's unless the test sets its own (a flag beats these variables, as it does for any user).
 */
const PATIENT_ENV: Record<string, string> = {
  CONFORMANCE_TIMEOUT_MS: String(SAFETY_NET_MS),
  CONFORMANCE_DEADLINE_MS: String(SAFETY_NET_MS),
};

export interface InProcessOptions {
  /** Each run starts its own spec runner, as the CLI does (for what a run does with its own runner). */
  ownSpecRunner?: boolean;
  /**
   * The reports a run writes unless the test says otherwise (--reports, CONFORMANCE_REPORTS): report.json alone by
   * default, since writing and screening every view costs a run more than recording and judging do; a file that reads
   * or screens the other views asks for them.
   */
  reports?: readonly ReportKind[];
}

export interface InProcessRuns {
  /**
   * The command line with --out added (after the subcommand, as runCli adds it), run as the CLI runs it in an empty
   * folder without the caller's settings, but in this process; a run's recording is judged by the shared spec runner.
   */
  run(args: string[], env?: Record<string, string>): Promise<CliRun>;
  /** Exactly this command line, in this process. Paths in it must be absolute: the process's folder is the test's. */
  exec(args: string[], env?: Record<string, string>): Promise<CliOutput>;
  /**
   * A --targets command line with --out added, its settings and targets read as the run command reads them, run by
   * runMatrix for the matrix it built and wrote; an interruption stands for Ctrl-C.
   */
  matrix(args: string[], env?: Record<string, string>, interruption?: AbortSignal): Promise<MatrixResult & { outDir: string }>;
  close(): Promise<void>;
}

/** Commands run in this process, their runs sharing one spec runner unless told: a recording each, judged in batches. */
export function inProcessRuns(options: InProcessOptions = {}): InProcessRuns {
  const workDirs: string[] = [];
  const environment = (env: Record<string, string>): Record<string, string> => ({
    ...PATIENT_ENV,
    CONFORMANCE_REPORTS: (options.reports ?? ['json']).join(','),
    ...env,
  });
  const judge = options.ownSpecRunner ? {} : { judge: processJudge };
  const workDir = async (): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-in-process-'));
    workDirs.push(dir);
    return dir;
  };
  const exec = async (args: string[], env: Record<string, string> = {}, dotenvPath?: string): Promise<CliOutput> => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await cli(args, {
      log: (line) => stdout.push(`${line}\n`),
      error: (line) => stderr.push(`${line}\n`),
      progress: () => undefined,
      colour: { stdout: false, stderr: false },
      env: environment(env),
      dotenvPath: dotenvPath ?? join(tmpdir(), 'conformance-no-such-folder', '.env'),
      startedAt: new Date(),
      ...judge,
    });
    return { code, signal: null, stdout: stdout.join(''), stderr: stderr.join('') };
  };
  return {
    async run(args, env = {}) {
      const dir = await workDir();
      const outDir = join(dir, 'out');
      const result = await exec(withOut(args, outDir), env, join(dir, '.env'));
      return collectOutput(result, outDir, () => removeFolder(dir));
    },
    exec: (args, env) => exec(args, env),
    async matrix(args, env = {}, interruption) {
      const dir = await workDir();
      const outDir = join(dir, 'out');
      const config = loadConfig(withOut(args, outDir), environment(env), join(dir, '.env'));
      const targets = loadTargets(config, environment(env), join(dir, '.env'));
      const result = await runMatrix(config, targets, undefined, {}, { ...judge, ...(interruption ? { interruption } : {}) });
      return { ...result, outDir };
    },
    async close() {
      await Promise.all(workDirs.map(removeFolder));
    },
  };
}

/**
 * Time for a whole file's cases to be recorded and judged together: the hook's bound against a hang, so that no
 * single test carries the wait for the batch.
 */
export const ALL_CASES_TIMEOUT_MS = TEST_SAFETY_NET_MS;

export interface StartedCases<T> {
  /** The case's outcome (or failure), for its own test to await. */
  outcome(name: string): Promise<T>;
  /** Settles once every case has, whatever each one's outcome. */
  settled: Promise<void>;
}

/**
 * Starts every case at once, so that their recordings are judged together. Call it in beforeAll, awaiting `settled`
 * with ALL_CASES_TIMEOUT_MS, so that merely collecting the file starts nothing.
 */
export function startAll<T>(cases: Iterable<readonly [string, () => Promise<T>]>): StartedCases<T> {
  const started = new Map<string, Promise<T>>();
  for (const [name, start] of cases) started.set(name, start());
  // Each test sees its own case's failure; none goes unhandled meanwhile.
  const settled = Promise.allSettled(started.values()).then(() => undefined);
  return {
    outcome: (name) => started.get(name) ?? Promise.reject(new Error(`the case "${name}" was not started`)),
    settled,
  };
}

/** Starts a file's cases at once in its beforeAll (see startAll); each test then awaits its own case's outcome by name. */
export function startAllBeforeAll<T>(cases: Iterable<readonly [string, () => Promise<T>]>): (name: string) => Promise<T> {
  let started: StartedCases<T> | undefined;
  beforeAll(async () => {
    started = startAll(cases);
    await started.settled;
  }, ALL_CASES_TIMEOUT_MS);
  return (name) => started?.outcome(name) ?? Promise.reject(new Error('the cases were not started'));
}
