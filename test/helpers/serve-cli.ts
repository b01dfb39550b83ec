import { execFile, spawn } from 'node:child_process';
import { CLI_BIN, repoRoot } from './run-cli.js';

const serveArgs = (args: string[]): string[] => [CLI_BIN, 'serve', ...args];

/** Runs `ticketing-conformance serve` with arguments that make it end by itself (--help, a bad option). */
export function runServeCli(args: string[], timeoutMs = 30_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, serveArgs(args), { cwd: repoRoot, timeout: timeoutMs }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

export interface ServingCli {
  url: string;
  output: string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `ticketing-conformance serve` in a child process and waits, at most timeoutMs, for the address it prints. */
export function startServeCli(args: string[], timeoutMs = 20_000): Promise<ServingCli> {
  const child = spawn(process.execPath, serveArgs(args), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve printed no address within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /Reference server at (\S+?)(?: with |\. )/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        output,
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
      reject(new Error(`serve exited with ${code} before printing an address: ${output}`));
    });
  });
}
