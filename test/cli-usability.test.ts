import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { CHECKOUT_BIN, execCli, lastLine, repoRoot, type CliOutput } from './helpers/run-cli.js';
import { SAFETY_NET_MS, removeFolder } from './helpers/safety-net.js';

const TOKEN = 'usability-token-2f9e61';
const version = (JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

let server: RunningReferenceServer;
const { inProcess, cleanUpAfterAll } = fileResources();
beforeAll(async () => {
  server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
});

type Exec = (args: string[]) => Promise<CliOutput>;
/** The command line in this process: the same dispatcher, exit codes and lines as the binary. */
const inThisProcess: Exec = (args) => inProcess.exec(args);
/**
 * The checkout's bin, as `npm run conformance` starts it, where what a user sees is its process: its exit status, and
 * nothing else on stdout or stderr.
 */
const binary: Exec = (args) => execCli(args, repoRoot, {}, SAFETY_NET_MS, CHECKOUT_BIN);

test.each([
  ['-h', inThisProcess],
  ['help', inThisProcess],
  ['--help', binary],
])('%s prints the help and exits 0', async (flag, exec) => {
  const run = await exec([flag]);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^ticketing-conformance .*: checks a deployment/);
  expect(run.stdout).toContain('--base-url');
});

test('the V8 settings the command line makes at start are ones this Node knows: --version prints nothing else', async () => {
  // V8 names a flag it does not know on stderr, in every command's output.
  const run = await binary(['--version']);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe(version);
  expect(run.stderr).toBe('');
});

test('help COMMAND is that command’s --help; -v prints the version', async () => {
  const serve = await inProcess.exec(['help', 'serve']);
  expect(serve.code).toBe(0);
  expect(serve.stdout).toMatch(/^Usage: ticketing-conformance serve /);
  const shown = await inProcess.exec(['-v']);
  expect(shown.stdout.trim()).toBe(version);
});

test.each([
  [['--base-ur', 'x'], "Unknown option '--base-ur'. Did you mean --base-url?", binary],
  [['--tokn', 'x'], "Unknown option '--tokn'. Did you mean --token?", inThisProcess],
  [['--strickt'], "Unknown option '--strickt'. Did you mean --strict?", inThisProcess],
  [['serve', '--prot', '1'], "Unknown option '--prot'. Did you mean --port?", inThisProcess],
  [['diff', '--hlep'], "Unknown option '--hlep'. Did you mean --help?", inThisProcess],
])('a mistyped option %j gets one line naming the option it most likely meant', async (args, said, exec) => {
  const run = await exec(args);
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain(said);
});

test('an option far from every known one gets no guess', async () => {
  const run = await inProcess.exec(['--zzzzzzzz']);
  expect(run.code).toBe(2);
  expect(run.stderr).not.toContain('Did you mean');
});

test('--fault on the main command says it belongs to serve', async () => {
  const run = await inProcess.exec(['--fault', 'colour-missing']);
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toBe(
    'CONFIG_UNKNOWN_OPTION: --fault is an option of the serve command, not of a conformance run. Start the reference server with it: ticketing-conformance serve --fault ...; then test it with --base-url',
  );
});

test('serve on a port in use says so and suggests --port 0, never "a bug in the suite"', async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const address = busy.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    // The real CLI: serve is a process of its own, ended by a signal, and a busy port must end it with status 2.
    const run = await execCli(['serve', '--port', String(port)], repoRoot);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `CONFIG_INVALID: port ${port} on 127.0.0.1 is already in use. Stop what listens there, or pass --port 0 to pick a free port`,
    );
  } finally {
    await new Promise((resolve) => busy.close(resolve));
  }
});

test('piped, a run says first which address it tests, and a skip says why in the terminal and in report.md', async () => {
  // A status without translations leaves the translation requirements unjudged.
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '3', '--reports', 'json,md']);
  try {
    expect(run.stdout.split('\n')[0]).toBe(`Testing ${server.url}/ ...`);
    const skipped = run.report?.requirements.filter((result) => result.verdict === 'skip') ?? [];
    expect(skipped.length).toBeGreaterThan(0);
    const reason = skipped[0]?.checks.find((check) => check.verdict === 'skip')?.description ?? '?';
    expect(run.stdout).toContain(`skipped: ${reason}`);
    const markdown = await readFile(join(run.outDir, 'report.md'), 'utf8');
    expect(markdown).toContain('## Not judged (skipped)');
    expect(markdown).toContain(`- **${skipped[0]?.id ?? '?'}**: ${reason}`);
  } finally {
    await run.cleanup();
  }
});

test('a run in which everything errored counts what could not be judged on its last line', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const address = closed.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => closed.close(resolve));
  const run = await inProcess.run(['--base-url', `http://127.0.0.1:${port}`, '--token', TOKEN]);
  try {
    expect(run.code).toBe(2);
    const errors = run.report?.totals.error ?? 0;
    expect(errors).toBeGreaterThan(0);
    expect(lastLine(run)).toMatch(new RegExp(`^0 passed, 0 failed, 0 skipped, ${errors} could not be judged in [\\d.]+ s$`));
  } finally {
    await run.cleanup();
  }
});

/**
 * The real CLI under a pseudo-terminal (util-linux script), as a person at a terminal runs it: the bytes the terminal
 * gets. It runs the checkout's TypeScript source even though dist/ is current, so that a whole run from source, the
 * judging thread's TypeScript loader included, is tested somewhere.
 */
function atTerminal(args: string[], cwd: string): Promise<string> {
  const command = [process.execPath, CHECKOUT_BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['NO_COLOR', 'CI', 'NODE_OPTIONS'].includes(name) && !name.startsWith('VITEST')),
  );
  return new Promise((done) => {
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      { cwd, env: { ...env, TERM: 'xterm', CONFORMANCE_FROM_SOURCE: '1' }, timeout: SAFETY_NET_MS },
      (_error, stdout) => done(stdout),
    );
  });
}

test.skipIf(!existsSync('/usr/bin/script'))('at a terminal the progress line is live during the run and cleared at the end', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'conformance-tty-'));
  const output = await atTerminal(['--base-url', server.url, '--token', TOKEN, '--out', join(folder, 'out')], folder);
  await removeFolder(folder);
  const frames = output.split('\r\u001b[2K').filter((frame) => /^ {2}\d+\.\d s · /.test(frame));
  expect(frames.length).toBeGreaterThan(1);
  expect(frames.some((frame) => /scenarios judged/.test(frame))).toBe(true);
  expect(output).toContain(`Testing ${server.url}/ ...`);
  // The line is cleared before the results, so none of them starts after a progress frame.
  expect(output).toMatch(/\r\u001b\[2K\r?\n?[\s\S]*Verdict for /);
});
