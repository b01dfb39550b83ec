import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { connect } from 'node:net';
import { serveSockets } from './helpers/loopback-server.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { SETTINGS } from '../src/config/settings.js';
import { schemaProblems } from './helpers/schema-problems.js';
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

interface DeadTarget {
  url: string;
  args?: string[];
  /** The connection is made before the port hangs up, so the first round is on its way before the failure shows. */
  accepts?: true;
  connections(): number;
  close(): Promise<void>;
}

/** Addresses where nothing answers HTTP, each failing the first request in its own way. */
const unreachable: [string, () => Promise<DeadTarget>, RegExp][] = [
  [
    'a closed port',
    async () => ({ url: `http://127.0.0.1:${await freePort()}/support`, connections: () => 0, close: async () => undefined }),
    /connection refused/g,
  ],
  [
    'a host name that does not resolve',
    async () => ({ url: 'https://conformance-target.invalid', connections: () => 0, close: async () => undefined }),
    /could not be resolved/g,
  ],
  [
    'a port that accepts and hangs up at once',
    async () => {
      const server = await serveSockets((socket) => socket.destroy());
      return { url: server.url, accepts: true, connections: () => server.connections, close: () => server.close() };
    },
    /connection closed before the response/g,
  ],
  [
    'a port that accepts and never completes the TLS handshake, with a short time-out',
    async () => {
      const server = await serveSockets((socket) => socket.resume(), { scheme: 'https' });
      return { url: server.url, args: ['--timeout-ms', '500'], connections: () => server.connections, close: () => server.close() };
    },
    /timed out after 500 ms connecting/g,
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
  '%s is told once: nothing sent once it failed, at most 15 lines, the cause once in report.md, every file valid, exit 2',
  async (_name, start, cause) => {
    const target = await start();
    const run = await inProcess.run(['--base-url', target.url, '--token', 'unreachable-token-2', ...(target.args ?? [])], {
      CONFORMANCE_REPORTS: REPORT_KINDS.join(','),
    });
    try {
      expect(run.code).toBe(2);
      // The first request goes alone until a connection is made; once it fails, nothing more is sent. A port that
      // accepts is reached: the first round goes out over fresh connections, none of them sent again.
      const bound = target.accepts ? SETTINGS.concurrency.default : 1;
      expect(run.report?.requests.sent).toBeLessThanOrEqual(bound);
      expect(target.connections()).toBeLessThanOrEqual(bound);
      expect(`${run.stdout}${run.stderr}`.trim().split('\n').length).toBeLessThanOrEqual(15);
      expect(run.report?.requirements.every((result) => result.verdict === 'error')).toBe(true);
      const markdown = await readFile(join(run.outDir, 'report.md'), 'utf8');
      expect(markdown.match(cause)).toHaveLength(1);
      expect(markdown).toContain(
        `${run.report?.requirements.length} requirements not judged, because no answer came back whole from the target`,
      );
      expect(await schemaProblems(run)).toEqual([]);
    } finally {
      await run.cleanup();
      await target.close();
    }
  },
);

test('a target that hangs up one connection before its first answer is still judged: that request is sent again, nothing else stops', async () => {
  const token = 'unreachable-token-3';
  const reference = await startReferenceServer({ token });
  const upstream = new URL(reference.url);
  // The second connection is hung up before the first answer leaves: a connection of the first round, not the first's.
  let accepted = 0;
  let hangUp = (): void => undefined;
  const secondHungUp = new Promise<void>((resolve) => (hangUp = resolve));
  const front = await serveSockets((socket) => {
    accepted += 1;
    if (accepted === 2) {
      socket.destroy();
      hangUp();
      return;
    }
    const forward = (): void => {
      const inner = connect(Number(upstream.port), upstream.hostname);
      inner.on('error', () => socket.destroy());
      socket.on('error', () => inner.destroy());
      socket.pipe(inner).pipe(socket);
    };
    if (accepted === 1) void secondHungUp.then(forward);
    else forward();
  });
  const run = await inProcess.run(['--base-url', front.url, '--token', token]);
  try {
    expect(accepted).toBeGreaterThan(2);
    expect({ exit: run.code, verdict: run.report?.verdict }).toEqual({ exit: 0, verdict: 'conformant' });
  } finally {
    await run.cleanup();
    await front.close();
    await reference.close();
  }
});
