import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { fileResources } from '../helpers/file-resources.js';
import { COMPILED_CLI, repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

const TOKEN = 'recording-token-3b9e27';
const { cleanUpAfterAll, tempFolder } = fileResources();

/** Runs the real CLI under strace, logging every socket the process and its threads create: the point is the process. */
function traceCli(log: string, args: string[], cwd: string): Promise<number> {
  return new Promise((done) => {
    execFile(
      'strace',
      ['-f', '-qq', '-e', 'trace=socket', '-o', log, process.execPath, COMPILED_CLI, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '' }, timeout: SAFETY_NET_MS },
      (error) => done(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    );
  });
}

test('no socket is opened: traced, the judge creates no internet socket while the live run does', async () => {
  const server = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  cleanUpAfterAll(server.close);
  const work = await tempFolder('judge-trace-');
  const traced = async (args: string[]): Promise<{ code: number; sockets: string[] }> => {
    const log = join(work, `trace-${args[0] ?? 'run'}.log`);
    const result = await traceCli(log, args, work);
    const lines = (await readFile(log, 'utf8')).split('\n');
    return { code: result, sockets: lines.filter((line) => /socket\(AF_INET6?,/.test(line)) };
  };
  const recording = join(repoRoot, 'test', 'fixtures', 'recordings', 'colour-missing.recording.json');
  const judged = await traced(['judge', recording, '--out', join(work, 'judged'), '--quiet']);
  expect(judged.code).toBe(1);
  expect(judged.sockets).toEqual([]);
  // The tracer sees a run's sockets, so an empty list above means none were made.
  const live = await traced(['--base-url', server.url, '--token', TOKEN, '--out', join(work, 'live'), '--quiet']);
  expect(live.code).toBe(1);
  expect(live.sockets.length).toBeGreaterThan(0);
});
