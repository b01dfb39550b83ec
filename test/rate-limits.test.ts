import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { classifyAnswer } from '../src/classify/classify.js';
import { frontAnsweredSome } from '../src/diagnosis/fronts.js';
import { diagnoseStack } from '../src/diagnosis/rules.js';
import { HarnessError } from '../src/errors.js';
import { STATUS_PATH } from '../src/exchange/exchange.js';
import { loadConfig } from '../src/config/load.js';
import { HttpClient } from '../src/http/client.js';
import { askedWaitMs, MAX_RETRIES_PER_REQUEST, Pacer, RetryAfterPause } from '../src/http/rate-limit.js';
import { targetSettings } from '../src/pipeline/pipeline.js';
import { answer, APACHE_503_PAGE, served } from './doctor/recorded.js';
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

/** Who each shape of refusal is named after, when its answer tells. */
const THROTTLERS: Record<RefusalName, string | undefined> = {
  'nginx limit_req (503 page)': 'nginx (limit_req)',
  'an application throttle (429, Retry-After in seconds)': undefined,
  'HAProxy (429, Retry-After as an HTTP date)': undefined,
  'Kong (429 JSON, no Retry-After)': 'Kong',
  'AWS API Gateway (429 JSON, no Retry-After)': 'AWS API Gateway',
  'Cloudflare (429, error 1015)': 'Cloudflare',
  'a throttle asking for an hour (429, Retry-After: 3600)': undefined,
};

const throttled = (name: RefusalName) => {
  const { status, body, headers } = REFUSALS[name];
  return answer(status, body, headers());
};

describe('how a throttled answer is read', () => {
  test.each(Object.keys(REFUSALS) as RefusalName[])('%s: a rate limit, its vendor named when it shows', (name) => {
    const { status, body, headers } = throttled(name);
    const { origin, meaning } = classifyAnswer({ apiPath: STATUS_PATH(1), status, headers, bodyText: body });
    expect(origin).toMatchObject({ kind: 'front', front: 'rate-limiter' });
    expect(origin.kind === 'front' ? origin.vendor : 'not a front').toBe(THROTTLERS[name]);
    expect(meaning.kind).toBe('error-page');
  });

  test.each(Object.keys(REFUSALS) as RefusalName[])(
    '%s on every request: no verdict, and the fix is a slower suite or an allowance',
    (name) => {
      const seen = throttled(name);
      const [diagnosis, ...others] = diagnoseStack({ valid: seen, noHeader: seen, wrongToken: seen });
      expect(others).toEqual([]);
      expect(diagnosis).toMatchObject({ id: 'rate-limited', party: 'environment', inconclusive: true });
      expect(diagnosis?.summary).toMatch(
        new RegExp(
          `^${THROTTLERS[name] ?? 'a rate limit of the deployment'} refused the suite's requests for asking too fast`.replace(
            /[()]/g,
            '\\$&',
          ),
        ),
      );
      expect(diagnosis?.advice[0]).toMatch(/^Slow the suite down below the limit: --rate-limit \d+\/s \(CONFORMANCE_RATE_LIMIT=/);
      expect(JSON.stringify(diagnosis)).not.toMatch(/pm\.max_children|--concurrency|PHP-FPM/);
    },
  );

  test("Kong's own headers give the rate to keep to; nginx's fix carries the lines of an exemption", () => {
    const kong = throttled('Kong (429 JSON, no Retry-After)');
    expect(diagnoseStack({ valid: kong })[0]?.advice[0]).toMatch(/--rate-limit 3\/s/);
    const [nginx] = diagnoseStack({ valid: throttled('nginx limit_req (503 page)') });
    expect(nginx?.advice[1]).toMatch(/limit_req does not count.*burst= and nodelay.*ngx_http_limit_req_module/);
    expect(nginx?.snippets?.[0]?.lines.join('\n')).toMatch(/geo \$limited[\s\S]*limit_req_zone \$limit_key/);
    const [aws] = diagnoseStack({ valid: throttled('AWS API Gateway (429 JSON, no Retry-After)') });
    expect(aws?.advice[1]).toMatch(/usage plan/);
  });

  test('some requests throttled while the others were served: named as rate limiting, not as a pool too small', () => {
    const blocked = [
      {
        requirement: 'AUTH-PASSWORD-IGNORED',
        credentials: 'valid token, 256-character password',
        withToken: true,
        answer: throttled('nginx limit_req (503 page)'),
      },
    ];
    const diagnosis = frontAnsweredSome(blocked, false);
    expect(diagnosis).toMatchObject({ id: 'rate-limited', party: 'environment', confidence: 'high' });
    expect(diagnosis?.summary).toMatch(
      /^nginx \(limit_req\) refused some of the suite's requests for asking too fast .* while it served the others: AUTH-PASSWORD-IGNORED could not be judged/,
    );
    expect(JSON.stringify(diagnosis)).not.toMatch(/pm\.max_children|--concurrency/);
  });

  test.each([
    ["Apache's own 503 page: PHP-FPM unreachable", answer(503, APACHE_503_PAGE, { 'content-type': 'text/html' }), 'web-server'],
    ['an empty 503', answer(503, '', {}), 'web-server'],
    [
      "nginx's 502 page: PHP behind it failed",
      answer(
        502,
        '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
        { 'content-type': 'text/html' },
      ),
      'web-server',
    ],
    [
      "nginx's 503 page with Retry-After: a maintenance window",
      answer(503, '<hr><center>nginx</center>', { 'retry-after': '120' }),
      'maintenance',
    ],
  ])('%s is no rate limit', (_name, seen, front) => {
    expect(
      classifyAnswer({ apiPath: STATUS_PATH(1), status: seen.status, headers: seen.headers, bodyText: seen.body }).origin,
    ).toMatchObject({ front });
    expect(diagnoseStack({ valid: served, noHeader: seen }).map((diagnosis) => diagnosis.id)).not.toContain('rate-limited');
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
