import { execFile, spawn } from 'node:child_process';
import { COMPILED_CLI, cliEnv, repoRoot } from './run-cli.js';
import { SAFETY_NET_MS } from './safety-net.js';

const serveArgs = (args: string[]): string[] => [COMPILED_CLI, 'serve', ...args];

/** Runs `ticketing-conformance serve` with arguments that make it end by itself (--help, a bad option). */
export function runServeCli(args: string[], timeoutMs = SAFETY_NET_MS): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, serveArgs(args), { cwd: repoRoot, timeout: timeoutMs }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

export interface ServingCli {
  url: string;
  output: string;
  /** All it wrote on stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code, once all it wrote is read. */
  stop(): Promise<number | null>;
}

/** Starts `ticketing-conformance serve` in a child process and waits, at most timeoutMs, for the address it prints. */
export function startServeCli(args: string[], timeoutMs = SAFETY_NET_MS): Promise<ServingCli> {
  return startListeningCli(['serve', ...args], /Reference server at (\S+?)(?: with |\. )/, { timeoutMs });
}

/**
 * Starts the CLI with these arguments, a subcommand first, in a child process in the environment cliEnv gives, and
 * waits, at most timeoutMs, for the address it prints (the first group of `printed`).
 */
export function startListeningCli(
  args: string[],
  printed: RegExp,
  {
    cwd = repoRoot,
    env = {},
    timeoutMs = SAFETY_NET_MS,
  }: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<ServingCli> {
  const child = spawn(process.execPath, [COMPILED_CLI, ...args], { cwd, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  // Once its output is read to the end, not only once it exited.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let output = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args[0] ?? 'the CLI'} printed no address within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = printed.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        output,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0] ?? 'the CLI'} exited with ${code} before printing an address: ${output}`));
    });
  });
}
