import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { serveSockets } from './helpers/loopback-server.js';
import { SETTINGS } from '../src/config/settings.js';
import { freePort } from './helpers/free-port.js';
import { fileResources } from './helpers/file-resources.js';

const { inProcess } = fileResources();

test('a closed port gives exit 2, one clear line about it, and a report still written', async () => {
  const port = await freePort();
  const run = await inProcess.run(['--base-url', `http://127.0.0.1:${port}`, '--token', 'unreachable-token-1']);
  try {
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('HARNESS_UNREACHABLE');
    expect(run.stdout).toMatch(/connection refused/);
    expect(run.stdout).not.toMatch(/\n\s+at /);
    expect(run.report?.verdict).toBe('inconclusive');
    expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toContain('target-not-reachable');
    expect(run.report?.requirements.filter((result) => result.level === 'MUST').every((result) => result.verdict === 'error')).toBe(true);
    const unjudged = run.report?.totals.error ?? 0;
    expect(unjudged).toBeGreaterThan(0);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^0 passed, 0 failed, 0 skipped, ${unjudged} could not be judged in [\\d.]+ s$`),
    );
  } finally {
    await run.cleanup();
  }
});

/** Addresses where no request can reach the API, each failing on the first request in its own way. */
const unreachable: [string, () => Promise<{ url: string; connections(): number; close(): Promise<void> }>, RegExp][] = [
  [
    'a closed port',
    async () => ({ url: `http://127.0.0.1:${await freePort()}/support`, connections: () => 0, close: async () => undefined }),
    /connection refused/g,
  ],
  [
    'an https:// address where a plain TCP service answers',
    async () => {
      const server = await serveSockets((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'), { scheme: 'https' });
      return { url: server.url, connections: () => server.connections, close: () => server.close() };
    },
    /wrong version number/g,
  ],
];

test.each(unreachable)(
  '%s is told once: nothing sent after the first round, at most 15 lines, the cause once in report.md, exit 2',
  async (_name, start, cause) => {
    const target = await start();
    const run = await inProcess.run(['--base-url', target.url, '--token', 'unreachable-token-2'], { CONFORMANCE_REPORTS: 'json,md' });
    try {
      expect(run.code).toBe(2);
      // The first round goes out at once; once its answers show the origin fails, nothing more is sent.
      const firstRound = SETTINGS.concurrency.default;
      expect(run.report?.requests.sent).toBeLessThanOrEqual(firstRound);
      expect(target.connections()).toBeLessThanOrEqual(firstRound);
      expect(`${run.stdout}${run.stderr}`.trim().split('\n').length).toBeLessThanOrEqual(15);
      expect(run.report?.requirements.every((result) => result.verdict === 'error')).toBe(true);
      const markdown = await readFile(join(run.outDir, 'report.md'), 'utf8');
      expect(markdown.match(cause)).toHaveLength(1);
      expect(markdown).toContain(`${run.report?.requirements.length} requirements not judged, because no request reached the target`);
    } finally {
      await run.cleanup();
      await target.close();
    }
  },
);
