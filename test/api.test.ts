import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { ConfigError } from '../src/errors.js';
import { run, type RunOptions } from '../src/index.js';
import { removeFolder } from './helpers/safety-net.js';

test.each(['help', 'quiet', 'targets', 'compareTo'])('run() refuses the command-line setting %s before sending anything', async (name) => {
  await expect(run({ [name]: true } as RunOptions)).rejects.toThrow(`run(): "${name}" belongs to the command line, not to one run`);
});

test('run() refuses a name that is no option at all', async () => {
  await expect(run({ baseURL: 'http://127.0.0.1:9' } as RunOptions)).rejects.toThrow('run(): unknown option "baseURL"');
});

test.each([
  [{ timeoutMs: 0 }, ['--timeout-ms', '0']],
  [{ statusId: 1.5 }, ['--status-id', '1.5']],
  [{ baseUrl: 'ftp://help.example.com', token: 'a-token-long-enough-to-check' }, ['--base-url', 'ftp://help.example.com']],
  [{ baseUrl: 'https://help.example.com' }, ['--base-url', 'https://help.example.com']],
  [{ lang: 'french' }, ['--lang', 'french']],
  [{ ca: 'missing.pem', insecure: true }, ['--ca', 'missing.pem', '--insecure']],
] as [RunOptions, string[]][])('run(%j) is refused with the one line the command line gets', async (options, argv) => {
  const fromFlags = (() => {
    try {
      loadConfig(argv, {}, '');
    } catch (error) {
      return error as ConfigError;
    }
    throw new Error('the command line was accepted');
  })();
  const refusal = await run(options).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(ConfigError);
  expect((refusal as ConfigError).oneLine()).toBe(fromFlags.oneLine());
});

test.each([
  [{ strict: 'yes' }, 'run(): "strict" is true or false'],
  [{ timeoutMs: Number.NaN }, 'run(): "timeoutMs" is a string or a number'],
  [{ out: ['reports'] }, 'run(): "out" is a string or a number'],
])('run() refuses a value of the wrong type: %j', async (options, message) => {
  await expect(run(options as unknown as RunOptions)).rejects.toThrow(message);
});

test('run() takes its settings as given, numbers included, and reads no environment variable', async () => {
  const out = await mkdtemp(join(tmpdir(), 'run-api-'));
  const saved = { ...process.env };
  // Settings a command line would take from the environment, each enough to stop a run.
  Object.assign(process.env, { CONFORMANCE_BASE_URL: 'not a url', CONFORMANCE_TIMEOUT_MS: '0', CONFORMANCE_REPEAT: 'many' });
  try {
    const report = await run({ out, statusId: 1, timeoutMs: 5000, maxRequests: 40, strict: true });
    expect(report.exitCode).toBe(0);
    expect(report.target.embeddedReference).toBe(true);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
    // The report every file was rendered from, frozen: a caller cannot make it say something the files do not.
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
    expect(Object.isFrozen(report.requirements)).toBe(true);
  } finally {
    process.env = saved;
    await removeFolder(out);
  }
});
