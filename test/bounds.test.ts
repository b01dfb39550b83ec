import { createServer, type Socket } from 'node:net';
import { describe, expect, test } from 'vitest';
import { JsonValueBudget } from '../src/http/body-budget.js';
import { MAX_JSON_VALUES, parseJson } from '../src/exchange/body-text.js';
import { statuses } from '../src/reference-server/data.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { errorCodes } from './helpers/expect-run.js';
import { hostileTargets } from './helpers/hostile-targets.js';
import { forward, serveHttp } from './helpers/loopback-server.js';
import { fileResources } from './helpers/file-resources.js';
import { COUNTS_LINE, runCli, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'bounds-token-6e1f3a90';
const { inProcess, cleanUpAfterAll } = fileResources();

/**
 * The real CLI, whose process must end by itself whatever the target or proxy holds open: one the safety net had to
 * kill reports the signal, and fails.
 */
async function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = await runCli(args, env);
  cleanUpAfterAll(run.cleanup);
  return run;
}

/** The run command in this process, its recordings judged by the file's shared spec runner. */
async function runInProcess(args: string[]): Promise<CliRun> {
  const run = await inProcess.run(args);
  cleanUpAfterAll(run.cleanup);
  return run;
}

/** A forward proxy on loopback that misbehaves in one way, holding every connection open until the test ends. */
async function badProxy(onConnection: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanUpAfterAll(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const stalledProxies: [string, 'https' | 'http', (socket: Socket) => void][] = [
  ['accepts the connection and never answers CONNECT', 'https', (socket) => socket.resume()],
  [
    'grants the tunnel, then forwards nothing (the TLS handshake never ends)',
    'https',
    (socket) => socket.once('data', () => socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')),
  ],
  ['trickles half a status line to CONNECT', 'https', (socket) => socket.once('data', () => socket.write('HTTP/1.1 2'))],
  ['takes a plain http request and never answers', 'http', (socket) => socket.resume()],
];

describe('the deadline bounds the whole run, whatever hangs', () => {
  test.concurrent.each(stalledProxies)('a proxy that %s', async (_name, scheme, behaviour) => {
    const proxy = await badProxy(behaviour);
    const variable = scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
    const run = await cli(
      ['--base-url', `${scheme}://conformance-target.invalid`, '--token', TOKEN, '--deadline-ms', '3000', '--timeout-ms', '600000'],
      { [variable]: proxy },
    );
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(errorCodes(run.report)).toContain('HARNESS_DEADLINE');
    expect(run.report?.complete).toBe(false);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(COUNTS_LINE);
  });

  test.concurrent('a proxy that never answers CONNECT meets --timeout-ms before the deadline', async () => {
    const proxy = await badProxy((socket) => socket.resume());
    const run = await cli(
      ['--base-url', 'https://conformance-target.invalid', '--token', TOKEN, '--deadline-ms', '600000', '--timeout-ms', '1000'],
      { HTTPS_PROXY: proxy },
    );
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(errorCodes(run.report)).toContain('HARNESS_TIMEOUT');
  });

  test.concurrent('doctor has the same deadline', async () => {
    const target = await hostileTargets['accepts-never-answers'](TOKEN);
    cleanUpAfterAll(target.close);
    const run = await cli(['doctor', '--base-url', target.url, '--token', TOKEN, '--deadline-ms', '2000', '--timeout-ms', '600000']);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(run.stdout).toMatch(/deadline/);
  });
});

/** Bodies of tiny values, each just under the 256 KiB an answer may hold freely. */
const DENSE_BODIES: [string, string][] = [
  ['empty arrays', `[${Array(87_000).fill('[]').join(',')}]`],
  ['empty objects', `{"status":"success","message":null,"data":[${Array(87_000).fill('{}').join(',')}]}`],
  ['zeros', `[${Array(130_000).fill('0').join(',')}]`],
  ['one-letter keys', `{${Array.from({ length: 40_000 }, (_, index) => `"${index.toString(36)}":1`).join(',')}}`],
];

describe('memory follows the number of parsed values, not only the bytes', () => {
  test.each(DENSE_BODIES)('an answer of %s is not parsed', (_name, body) => {
    expect(Buffer.byteLength(body)).toBeLessThan(512 * 1024);
    expect(parseJson({ text: body })).toEqual({
      ok: false,
      error: expect.stringMatching(/more than the 20000 the suite reads of one answer \(its cap\)/) as string,
      why: 'suite-limit',
    });
  });

  test('a status with 200 translations is read, and one target shares an allowance of values', () => {
    const status = statuses[0];
    const translations = Array.from({ length: 200 }, (_, index) => ({ status_id: 1, name: `n${index}`, locale: 'aa' }));
    const body = JSON.stringify({ status: 'success', message: null, data: { ...status, translations } });
    expect(parseJson({ text: body }).ok).toBe(true);
    const shared = new JsonValueBudget(MAX_JSON_VALUES, 3 * 1500);
    const results = Array.from({ length: 5 }, () => parseJson({ text: body }, shared).ok);
    expect(results).toEqual([true, true, true, false, false]);
  });

  test.concurrent('a target that answers every request with dense JSON: not judged, the cap named, memory bounded', async () => {
    const [, body] = DENSE_BODIES[0] ?? ['', ''];
    const target = await serveHttp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      response.end(body);
    });
    cleanUpAfterAll(target.close);
    const run = await runInProcess(['--base-url', target.url, '--token', TOKEN]);
    // A cap of the suite's own is never the target's failure: no verdict, and the cap named.
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    const errors = run.report?.requirements.flatMap((result) => result.checks.flatMap((check) => (check.error ? [check.error] : [])));
    expect(errors?.map((error) => error.code)).toContain('HARNESS_SUITE_LIMIT');
    expect(errors?.map((error) => error.message).join('\n')).toMatch(
      /values, more than the 20000 the suite reads of one answer \(its cap\)/,
    );
    expect(run.report?.requirements.filter((result) => result.verdict === 'fail')).toEqual([]);
  });
});

describe('a budget smaller than the plan', () => {
  // The real CLI: Node writes its own warnings (such as one about many abort listeners) to the process's stderr.
  test('stops the run with one reason on stdout and nothing from Node on stderr', async () => {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    const run = await cli(['--base-url', server.url, '--token', TOKEN, '--max-requests', '6']);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('the request budget of 6 was spent before');
    expect(run.stderr).toBe('');
  });
});

describe('--repeat shares the invocation’s request budget and deadline', () => {
  test.concurrent('--repeat 5 with a budget for one run and a half: one whole run, no partial one, none flaky', async () => {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    const single = await runInProcess(['--base-url', server.url, '--token', TOKEN]);
    const perRun = single.report?.requests.sent ?? 0;
    const budget = perRun + Math.floor(perRun / 2);
    const run = await runInProcess(['--base-url', server.url, '--token', TOKEN, '--repeat', '5', '--max-requests', String(budget)]);
    expect(run.code).toBe(0);
    expect(run.report?.requests.sent).toBe(perRun);
    expect(run.report?.totals.flaky).toBe(0);
    expect(run.report?.requirements.every((result) => result.repeat === undefined || result.repeat.runs === 1)).toBe(true);
  });

  test.concurrent('--repeat 3 with a budget for two runs: two runs, agreed', async () => {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    const single = await runInProcess(['--base-url', server.url, '--token', TOKEN]);
    const perRun = single.report?.requests.sent ?? 0;
    const run = await runInProcess(['--base-url', server.url, '--token', TOKEN, '--repeat', '3', '--max-requests', String(2 * perRun + 1)]);
    expect(run.code).toBe(0);
    expect(run.report?.requests.sent).toBe(2 * perRun);
    expect(run.report?.requirements.every((result) => result.repeat?.runs === 2 && result.repeat.agreed === 2)).toBe(true);
  });

  test.concurrent('a deadline that expires during a later run marks nothing flaky', async () => {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    const single = await runInProcess(['--base-url', server.url, '--token', TOKEN]);
    const perRun = single.report?.requests.sent ?? 0;
    // The first run is answered at once; no later request is ever answered, so only the deadline ends the second run.
    let seen = 0;
    const front = await serveHttp((request, response) => {
      seen += 1;
      if (seen <= perRun) forward(request, response, new URL(server.url));
    });
    cleanUpAfterAll(front.close);
    // A second run starts only when the first took less than the time left (the run's own rule): the deadline is sized
    // from the run just made on this machine, so a slower machine gets a longer one, and a second run always starts.
    // A request's own time-out outlasts the deadline, so the deadline, not a time-out, ends the second run.
    const deadlineMs = Math.max(10_000, 5 * (single.report?.durationMs ?? 0));
    const run = await runInProcess([
      ...['--base-url', front.url, '--token', TOKEN, '--repeat', '5'],
      ...['--deadline-ms', String(deadlineMs), '--timeout-ms', String(2 * deadlineMs)],
    ]);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
    expect(seen).toBeGreaterThan(perRun);
    expect(run.report?.totals.flaky).toBe(0);
    expect(run.report?.requests.sent).toBeLessThanOrEqual(run.report?.options.maxRequests ?? 0);
  });

  test('without --max-requests, each repeat gets the default budget', async () => {
    const { loadConfig } = await import('../src/config/load.js');
    expect(loadConfig(['--repeat', '3'], {}, '/nonexistent/.env').maxRequests).toBe(120);
    expect(loadConfig(['--repeat', '3', '--max-requests', '20'], {}, '/nonexistent/.env').maxRequests).toBe(20);
    expect(loadConfig(['--repeat', '3'], { CONFORMANCE_MAX_REQUESTS: '25' }, '/nonexistent/.env').maxRequests).toBe(25);
  });

  test('without --max-requests, each listed status and language gets the default budget too; one given is the whole', async () => {
    const { loadConfig } = await import('../src/config/load.js');
    const lists = ['--status-id', '1,2,5', '--lang', 'fr,de'];
    expect(loadConfig(lists, {}, '/nonexistent/.env').maxRequests).toBe(240);
    expect(loadConfig([...lists, '--repeat', '2'], {}, '/nonexistent/.env').maxRequests).toBe(480);
    expect(loadConfig(['--status-id', '1,2'], {}, '/nonexistent/.env').maxRequests).toBe(80);
    expect(loadConfig([...lists, '--max-requests', '30'], {}, '/nonexistent/.env').maxRequests).toBe(30);
  });
});
