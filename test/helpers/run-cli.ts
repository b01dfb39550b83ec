import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Report } from '../../src/report/types.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
const CLI = join(repoRoot, 'src', 'cli', 'main.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  outDir: string;
  report?: Report;
  /** Every file written to the output folder, with its content, for secret scans. */
  files(): Promise<{ path: string; content: Buffer }[]>;
  cleanup(): Promise<void>;
}

const CLEAN_ENV_PREFIX = 'CONFORMANCE_';

/** Runs the real CLI with exactly these arguments in `cwd`, with no CONFORMANCE_ variable of the caller's environment. */
export function spawnCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith(CLEAN_ENV_PREFIX) && name !== 'NODE_OPTIONS' && !name.startsWith('VITEST'),
    ),
  );
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), CLI, ...args],
      { cwd, env: { ...inherited, ...env, NO_COLOR: '1' }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** Runs the real CLI in a child process, in an empty folder so no .env of the repository leaks in. */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<CliRun> {
  const workDir = await mkdtemp(join(tmpdir(), 'conformance-cli-'));
  const outDir = join(workDir, 'out');
  const result = await spawnCli(['--out', outDir, ...args], workDir, env, timeoutMs);
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
    cleanup: () => rm(workDir, { recursive: true, force: true }),
  };
}

export function failedRequirements(report: Report | undefined): string[] {
  return (report?.requirements ?? [])
    .filter((result) => result.verdict === 'fail')
    .map((result) => result.id)
    .sort();
}
