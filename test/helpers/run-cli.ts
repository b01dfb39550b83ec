import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Report } from '../../src/report/model/types.js';
import { SAFETY_NET_MS, removeFolder } from './safety-net.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
/**
 * The command as `npm run conformance` runs it from a checkout: the bin, which runs dist/ while it was built from the
 * source as it is (as during the self-tests), and the TypeScript source otherwise or with CONFORMANCE_FROM_SOURCE=1.
 */
export const CHECKOUT_BIN = join(repoRoot, 'bin', 'ticketing-conformance.js');
/**
 * The command as the package ships it (bundled), compiled once for the self-test run by test/helpers/build-package.ts:
 * what the self-tests start as the real CLI (the checkout's bin is tested where it matters).
 */
export const COMPILED_CLI = join(repoRoot, 'dist', 'cli', 'main.js');

export interface CliOutput {
  code: number;
  /** The signal that ended the CLI, when the helper had to kill it; null when it exited by itself. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun extends CliOutput {
  outDir: string;
  report?: Report;
  /** Every file written to the output folder, with its content, for secret scans. */
  files(): Promise<{ path: string; content: Buffer }[]>;
  cleanup(): Promise<void>;
}

const CLEAN_ENV_PREFIX = 'CONFORMANCE_';
/** Set by GitHub Actions; a self-test's run must not append to the real job summary unless it asks to. */
const STEP_SUMMARY = 'GITHUB_STEP_SUMMARY';
/** A proxy of the machine would stand between the CLI and the loopback targets; tests that want one pass it. */
const PROXY_VARIABLES = /^(https?|no)_proxy$/i;

/**
 * The environment of a CLI the self-tests start: the caller's without its CONFORMANCE_* settings, proxies or step
 * summary, with NO_COLOR set, and env over it; a variable given as undefined in env is removed.
 */
export function cliEnv(env: Record<string, string | undefined>): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !name.startsWith(CLEAN_ENV_PREFIX) &&
        name !== 'NODE_OPTIONS' &&
        name !== STEP_SUMMARY &&
        !name.startsWith('VITEST') &&
        !PROXY_VARIABLES.test(name),
    ),
  );
  return Object.fromEntries(
    Object.entries({ ...inherited, NO_COLOR: '1', ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Runs the real CLI with exactly these arguments, in the environment cliEnv gives. */
export function execCli(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  timeoutMs = SAFETY_NET_MS,
  bin = COMPILED_CLI,
): Promise<CliOutput> {
  return new Promise<CliOutput>((done) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, env: cliEnv(env), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, signal: error?.signal ?? null, stdout, stderr }),
    );
  });
}

/** The arguments with --out OUT added, after the subcommand if one goes first. */
export function withOut(args: string[], outDir: string): string[] {
  const [first, ...rest] = args;
  return first !== undefined && !first.startsWith('-') ? [first, '--out', outDir, ...rest] : ['--out', outDir, ...args];
}

/** Runs the real CLI in a child process, in an empty folder so no .env of the repository leaks in. A subcommand goes first in args. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = SAFETY_NET_MS): Promise<CliRun> {
  const workDir = await mkdtemp(join(tmpdir(), 'conformance-cli-'));
  const outDir = join(workDir, 'out');
  const result = await execCli(withOut(args, outDir), workDir, env, timeoutMs);
  return collectOutput(result, outDir, () => removeFolder(workDir));
}

/** What a run left: its output, the report it wrote to outDir, and every file there. */
export async function collectOutput(result: CliOutput, outDir: string, cleanup: () => Promise<void>): Promise<CliRun> {
  const report = await readFile(join(outDir, 'report.json'), 'utf8')
    .then((text) => JSON.parse(text) as Report)
    .catch(() => undefined);
  return {
    ...result,
    outDir,
    report,
    async files() {
      const names = await readdir(outDir, { recursive: true, withFileTypes: true }).catch(() => []);
      return Promise.all(
        names
          .filter((entry) => entry.isFile())
          .map(async (entry) => {
            const path = join(entry.parentPath, entry.name);
            return { path, content: await readFile(path) };
          }),
      );
    },
    cleanup,
  };
}

export function failedRequirements(report: Report | undefined): string[] {
  return (report?.requirements ?? [])
    .filter((result) => result.verdict === 'fail')
    .map((result) => result.id)
    .sort();
}

/**
 * The counts line every run ends with: passed, failed, skipped, then what is neither in its parts, warnings, INFO
 * observations and what could not be judged (a matrix and the doctor add what was flaky).
 */
export const COUNTS_LINE =
  /^\d+ passed, \d+ failed, \d+ skipped(, \d+ warnings?)?(, \d+ info)?(, \d+ could not be judged)?(, \d+ flaky)?( in [\d.]+ s)?$/;

/** The CLI's last line: the counts line every run ends with. */
export function lastLine(run: Pick<CliRun, 'stdout'>): string | undefined {
  return run.stdout.trim().split('\n').at(-1);
}
