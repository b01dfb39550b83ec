import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { HarnessError } from '../src/errors.js';
import { STATUS_PATH } from '../src/exchange/exchange.js';
import { loadConfig } from '../src/config/load.js';
import { HttpClient } from '../src/http/client.js';
import { askedWaitMs, MAX_RETRIES_PER_REQUEST, Pacer, RetryAfterPause } from '../src/http/rate-limit.js';
import { targetSettings } from '../src/pipeline/pipeline.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { expectSettledRun } from './helpers/expect-run.js';
import { forward, serveHttp } from './helpers/loopback-server.js';
import { exporterFor, samples, scrape } from './helpers/exporter.js';
import { fileResources } from './helpers/file-resources.js';
import { RATE_WITHIN_THE_LIMIT, REFUSALS, throttledReference, type RefusalName } from './helpers/throttling-targets.js';

const TOKEN = 'rate-limits-token-8c41f2';
const NOW = Date.parse('2026-03-01T12:00:00Z');
const { inProcess, cleanUpAfterAll } = fileResources();

async function runAgainst(refusal: RefusalName, args: string[] = [], variants: string[] = []) {
  const target = await throttledReference(TOKEN, refusal, variants);
  cleanUpAfterAll(target.close);
  const run = await inProcess.run(['--base-url', target.url, '--token', TOKEN, ...args]);
  cleanUpAfterAll(run.cleanup);
  return { run, target };
}

/** Throttles that end in an answer: the suite keeps it and names the rate limit. */
const ANSWERED = (Object.keys(REFUSALS) as RefusalName[]).filter((name) => !name.includes('an hour'));

describe.concurrent('a deployment that limits how fast it may be asked', () => {
  test.each(ANSWERED)('%s: without --rate-limit, no verdict, named as rate limiting with its fix', async (refusal) => {
    const { run, target } = await runAgainst(refusal);
    await expectSettledRun(run, { exit: 2, token: TOKEN, servers: target.servers });
    expect(target.refused()).toBeGreaterThan(0);
    const diagnosis = run.report?.diagnoses.find((found) => found.id === 'rate-limited');
    expect(diagnosis, run.stdout).toBeDefined();
    expect(diagnosis?.party).toBe('environment');
    expect(diagnosis?.advice[0]).toMatch(/^Slow the suite down below the limit: --rate-limit \d+\/s/);
    expect(run.stdout).toMatch(/^Diagnosis \(environment, \w+ confidence\): .* for asking too fast/m);
    // Throttling is no overload: nothing points at the PHP pool or at --concurrency.
    expect(run.stdout + JSON.stringify(run.report)).not.toMatch(/pm\.max_children|--concurrency/);
    expect(run.report?.requirements.filter((requirement) => requirement.verdict === 'fail')).toEqual([]);
  });

  test.each(ANSWERED)(`%s: with --rate-limit ${RATE_WITHIN_THE_LIMIT}, its real verdict`, async (refusal) => {
    const { run, target } = await runAgainst(refusal, ['--rate-limit', RATE_WITHIN_THE_LIMIT]);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: target.servers });
    expect(target.refused()).toBe(0);
    expect(run.report?.diagnoses).toEqual([]);
  });

  test('a Retry-After past the deadline is not waited for: no verdict, naming the cap', async () => {
    const { run, target } = await runAgainst('a throttle asking for an hour (429, Retry-After: 3600)');
    await expectSettledRun(run, {
      exit: 2,
      code: 'HARNESS_RATE_LIMITED',
      line: /answered HTTP 429 with Retry-After: 3600, a wait that ends past the run's deadline \(--deadline-ms\)/,
      token: TOKEN,
      servers: target.servers,
    });
    expect(run.report?.requests.waitedMs ?? 0).toBe(0);
    // Not one retry: every request the target saw, it saw once.
    const sent = target.servers[0]?.requests.map((request) => `${request.authorization ?? 'none'} ${request.url}`) ?? [];
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent).size).toBe(sent.length);
    expect(run.stdout).toMatch(/--rate-limit/);
  });

  test.each([
    ['in seconds', () => '1'],
    ['as an HTTP date', () => new Date(Date.now() + 1000).toUTCString()],
  ])('a 503 with Retry-After %s, once for each request: waited out within the deadline, then judged', async (_form, retryAfter) => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const asked = new Set<string>();
    const front = await serveHttp((request, response) => {
      const key = `${request.headers.authorization ?? ''} ${request.url ?? ''}`;
      if (asked.has(key)) return forward(request, response, new URL(reference.url));
      asked.add(key);
      response.writeHead(503, { 'content-type': 'text/html', 'retry-after': retryAfter() }).end('<h1>Back in a moment</h1>');
    });
    cleanUpAfterAll(front.close);
    // Every request is sent twice: a budget that holds both, since a retry the budget cannot pay is not sent.
    const run = await inProcess.run(['--base-url', front.url, '--token', TOKEN, '--max-requests', '100']);
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: [front] });
    expect(run.report?.requests.rateLimited).toBe(asked.size);
    expect(run.report?.requests.waitedMs).toBeGreaterThan(0);
  });

  test('the report says at what rate the run went, and so does the same recording judged again', async () => {
    const { run } = await runAgainst('nginx limit_req (503 page)', ['--rate-limit', RATE_WITHIN_THE_LIMIT, '--reports', 'json,recording']);
    expect(run.report?.options.rateLimit).toBe(RATE_WITHIN_THE_LIMIT);
    const again = await inProcess.run(['judge', join(run.outDir, 'recording.json')]);
    cleanUpAfterAll(again.cleanup);
    expect(again.code).toBe(0);
    expect(again.report?.options.rateLimit).toBe(RATE_WITHIN_THE_LIMIT);
  });

  test(`the same throttle with --rate-limit ${RATE_WITHIN_THE_LIMIT}: its real verdict`, async () => {
    const { run, target } = await runAgainst('a throttle asking for an hour (429, Retry-After: 3600)', [
      '--rate-limit',
      RATE_WITHIN_THE_LIMIT,
    ]);
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers: target.servers });
    expect(target.refused()).toBe(0);
  });

  test('an API that breaks a MUST behind the throttle: with --rate-limit, not conformant on its own answers', async () => {
    const { run, target } = await runAgainst(
      'nginx limit_req (503 page)',
      ['--rate-limit', RATE_WITHIN_THE_LIMIT],
      ['colour-without-hash'],
    );
    await expectSettledRun(run, { exit: 1, token: TOKEN, servers: target.servers });
    expect(target.refused()).toBe(0);
    expect(run.report?.requirements.find((requirement) => requirement.id === 'STATUS-COLOUR')?.verdict).toBe('fail');
  });
});

describe('waiting as asked, within the caps', () => {
  test('a 429 asks to wait, 1 s when it names no time; a 503 only with a Retry-After it can be read by', () => {
    expect(askedWaitMs(429, undefined, NOW)).toBe(1000);
    expect(askedWaitMs(429, '7', NOW)).toBe(7000);
    expect(askedWaitMs(429, 'Sun, 01 Mar 2026 12:00:02 GMT', NOW)).toBe(2000);
    expect(askedWaitMs(503, '2', NOW)).toBe(2000);
    expect(askedWaitMs(503, undefined, NOW)).toBeUndefined();
    expect(askedWaitMs(503, 'later', NOW)).toBeUndefined();
    expect(askedWaitMs(200, '2', NOW)).toBeUndefined();
  });

  test('a retry while the retries, the budget and the deadline allow it; the answer kept, or the cap named, after that', () => {
    const pause = new RetryAfterPause(NOW + 10_000);
    expect(pause.onAskedToWait(1000, 0, true, NOW)).toBe('retry');
    expect(pause.onAskedToWait(1000, MAX_RETRIES_PER_REQUEST, true, NOW)).toBe('keep-answer');
    expect(pause.onAskedToWait(1000, 0, false, NOW)).toBe('keep-answer');
    expect(pause.onAskedToWait(10_000, 0, true, NOW)).toBe('beyond-cap');
    // Waits that overlap pause every request once: only the time beyond the pause already under way is added.
    expect(pause.onAskedToWait(3000, 1, true, NOW)).toBe('retry');
    expect(pause.waitedMs).toBe(3000);
    expect(pause.rateLimitedAnswers).toBe(5);
  });

  test('a 503 that comes back after its wait is kept from then on, every 503 of the client with it', () => {
    const pause = new RetryAfterPause(NOW + 10_000);
    expect(pause.keepsUnavailable(0)).toBe(false);
    expect(pause.keepsUnavailable(1)).toBe(true);
    expect(pause.keepsUnavailable(0)).toBe(true);
  });

  test('--rate-limit sends one request at a time, at least an interval apart, and refuses a turn past the cap at once', async () => {
    const cap = "the run's deadline (--deadline-ms)";
    const pacer = new Pacer({ text: '20/s', intervalMs: 50 });
    // Each request's turn as the pacer gave it, and when its answer was in: a pause of the whole process between the
    // two readings of the clock is no fault of the pacer's.
    const spans: { start: number; end: number }[] = [];
    const request = async (sentAt: number): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      spans.push({ start: sentAt, end: Date.now() });
    };
    await Promise.all([1, 2, 3, 4].map(() => pacer.inTurn('/api/selfservice/type', Date.now() + 60_000, cap, request)));
    expect(spans).toHaveLength(4);
    spans.slice(1).forEach((span, index) => {
      const before = spans[index] ?? span;
      expect(span.start).toBeGreaterThanOrEqual(before.end);
      expect(span.start - before.start).toBeGreaterThanOrEqual(50);
    });

    const slow = new Pacer({ text: '1/h', intervalMs: 3_600_000 });
    await slow.inTurn('/api/ticket/status/1', Date.now() + 60_000, cap, request);
    const refused = await slow.inTurn('/api/selfservice/type', Date.now() + 60_000, cap, request).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HarnessError);
    expect(refused).toMatchObject({
      code: 'HARNESS_DEADLINE',
      message:
        "--rate-limit 1/h spaces requests 3600000 ms apart, so GET /api/selfservice/type would go out past the run's deadline (--deadline-ms): it was not sent",
    });
    expect(spans).toHaveLength(5);
  });

  test('a --repeat pass keeps the pace of the one before: its passes share the settings, and the pacer in them', async () => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const settings = targetSettings(
      { baseUrl: reference.url, token: TOKEN, options: loadConfig(['--rate-limit', '30/m'], {}, '/nonexistent/.env') },
      new Date(),
    );
    const request = { path: STATUS_PATH(1), credentials: 'valid' } as const;
    const first = new HttpClient(settings);
    const calledAt = Date.now();
    await first.get(request);
    await first.close();
    // A client of the next pass: its first request waits for the interval after the last of the pass before.
    const next = new HttpClient({ ...settings, maxRequests: settings.maxRequests - 1 });
    await next.get(request);
    await next.close();
    expect(Date.now() - calledAt).toBeGreaterThanOrEqual(2000);
  });
});

describe('the exporter', () => {
  test('a target of the targets file sets its own pace: judged; the same throttle without one is named, not judged', async () => {
    const [paced, unpaced] = await Promise.all([
      throttledReference(TOKEN, 'Kong (429 JSON, no Retry-After)'),
      throttledReference(TOKEN, 'Kong (429 JSON, no Retry-After)'),
    ]);
    cleanUpAfterAll(paced.close);
    cleanUpAfterAll(unpaced.close);
    const exporter = await exporterFor([
      { name: 'paced', baseUrl: paced.url, token: TOKEN, rateLimit: RATE_WITHIN_THE_LIMIT },
      { name: 'unpaced', baseUrl: unpaced.url, token: TOKEN },
    ]);
    cleanUpAfterAll(exporter.close);
    const [judged, named] = await Promise.all(
      ['paced', 'unpaced'].map(async (name) => samples((await scrape(`${exporter.url}/probe?target=${name}`)).text)),
    );
    expect(judged?.get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(paced.refused()).toBe(0);
    expect(named?.get('ticketing_conformance_judged')).toBe(0);
    expect(
      [...(named?.keys() ?? [])].filter((key) => key.startsWith('ticketing_conformance_diagnosis{diagnosis="rate-limited"')),
    ).toHaveLength(1);
    expect(unpaced.refused()).toBeGreaterThan(0);
  });
});
