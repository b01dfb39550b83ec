import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { recordTarget } from '../src/record/recorder.js';
import { targetSettings } from '../src/pipeline/pipeline.js';
import { loadConfig } from '../src/config/load.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { startDelayProxy } from '../scripts/bench/delay-proxy.js';
import { forward, serveHttp } from './helpers/loopback-server.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';
import { UNKNOWN_STATUS_ID } from '../src/record/target.js';

const TOKEN = 'prefetch-token-0c4e2b';
const { cleanUpAfterAll } = fileResources();

test('the prefetch sends each request once, all that need no earlier answer at once, and the lang requests over kept-alive connections', async () => {
  const server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  // A little delay keeps every first request in flight together, as against a far-away target.
  const proxy = await startDelayProxy(new URL(server.url), 20);
  cleanUpAfterAll(proxy.close);
  const config = loadConfig([], {}, join(repoRoot, 'no-such.env'));
  const recording = await recordTarget(
    targetSettings({ baseUrl: proxy.url, token: TOKEN, options: config, embeddedReference: true }, new Date()),
  );
  const keys = Object.keys(recording.answers);
  const lang = keys.filter((key) => key.includes('lang='));
  expect(lang).toHaveLength(2);
  expect(recording.traffic.sent).toBe(keys.length);
  expect(proxy.stats().requests).toBe(keys.length);
  // One connection per request sent first, up to the connection limit; the two lang requests, which wait for the
  // locales, and the first requests the limit held back, add none.
  expect(proxy.stats().connections).toBe(Math.min(keys.length - lang.length, config.concurrency));
  expect(Object.values(recording.answers).every((answer) => 'exchange' in answer)).toBe(true);
});

test('with several statuses and languages, the other statuses go in the first round and every lang request over kept-alive connections', async () => {
  const server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  const proxy = await startDelayProxy(new URL(server.url), 20);
  cleanUpAfterAll(proxy.close);
  // As many requests as two rounds of --concurrency hold: a third status in two languages, with its own refusals, needs a third.
  const config = loadConfig(['--status-id', '1,5', '--lang', 'fr,de'], {}, join(repoRoot, 'no-such.env'));
  const recording = await recordTarget(
    targetSettings({ baseUrl: proxy.url, token: TOKEN, options: config, embeddedReference: true }, new Date()),
  );
  const keys = Object.keys(recording.answers);
  const lang = keys.filter((key) => key.includes('lang='));
  // Each status in French, in German, and in a language it lacks.
  for (const id of [1, 5]) {
    expect(lang.filter((key) => key.includes(`/api/ticket/status/${id}?`)).map((key) => /lang=(\w+)/.exec(key)?.[1])).toEqual([
      'fr',
      'de',
      expect.stringMatching(/^[a-z]{2}$/),
    ]);
  }
  expect(proxy.stats().requests).toBe(keys.length);
  // The lang requests of every status wait for its answer, then reuse the connections the first round opened: no more
  // round trips than one status in one language costs, as long as the second round fits within --concurrency.
  const heldBack = Math.max(0, keys.length - lang.length - config.concurrency);
  expect(heldBack + lang.length).toBeLessThanOrEqual(config.concurrency);
  expect(proxy.stats().connections).toBe(Math.min(keys.length - lang.length, config.concurrency));
});

test('a slow answer of the first round does not hold back the lang requests, which wait only for their status', async () => {
  const server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  // The answer for the unknown id is held until a lang request has arrived (or, as a safety net, for a while): with
  // the lang requests waiting for the whole first round, they would arrive only after it.
  const arrivals: string[] = [];
  let releaseSlow: () => void = () => undefined;
  const slowHeld = new Promise<void>((resolve) => {
    releaseSlow = resolve;
    setTimeout(resolve, SAFETY_NET_MS).unref();
  });
  const front = await serveHttp((request, response) => {
    const url = request.url ?? '';
    arrivals.push(url);
    if (url.includes('lang=')) releaseSlow();
    if (url.endsWith(`/status/${UNKNOWN_STATUS_ID}`)) {
      void slowHeld.then(() => {
        arrivals.push('slow answer released');
        forward(request, response, new URL(server.url));
      });
    } else forward(request, response, new URL(server.url));
  });
  cleanUpAfterAll(front.close);
  // A connection limit far above the requests: the lang requests must still find a connection free, not open one.
  const config = loadConfig(['--concurrency', '32'], {}, join(repoRoot, 'no-such.env'));
  const recording = await recordTarget(
    targetSettings({ baseUrl: front.url, token: TOKEN, options: config, embeddedReference: true }, new Date()),
  );
  const lang = arrivals.filter((url) => url.includes('lang='));
  expect(lang).toHaveLength(2);
  expect(arrivals.indexOf('slow answer released')).toBeGreaterThan(arrivals.findIndex((url) => url.includes('lang=')));
  expect(Object.values(recording.answers).every((answer) => 'exchange' in answer)).toBe(true);
  // Every request but the two lang requests had a connection of its own; the lang requests reused two of them.
  expect(front.connections).toBe(Object.keys(recording.answers).length - lang.length);
});
