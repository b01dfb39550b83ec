import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { traceparent } from '../src/exchange/trace-context.js';
import { run } from '../src/index.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { switchFront } from './helpers/switch-front.js';
import { removeFolder } from './helpers/safety-net.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

test('every request of a run carries a traceparent whose trace id is the runId of report.json', async () => {
  const token = 'trace-context-token';
  const reference = await startReferenceServer({ token });
  const front = await switchFront(reference.url);
  const out = await mkdtemp(join(tmpdir(), 'trace-context-'));
  try {
    const report = await run({ baseUrl: front.url, token, out });
    expect(report.verdict).toBe('conformant');
    expect(front.headers.length).toBe(report.requests.sent);
    const parents = front.headers.map((headers) => TRACEPARENT.exec(String(headers.traceparent)));
    expect(parents.every(Boolean)).toBe(true);
    expect(new Set(parents.map((match) => match?.[1]))).toEqual(new Set([report.runId]));
    // Each request is its own span, so one line of an access log points at one exchange.
    expect(new Set(parents.map((match) => match?.[2])).size).toBe(parents.length);
    const written = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(written.runId).toBe(report.runId);
  } finally {
    await front.close();
    await reference.close();
    await removeFolder(out);
  }
});

test('two runs have two run ids', async () => {
  const out = await mkdtemp(join(tmpdir(), 'trace-context-'));
  try {
    const first = await run({ out });
    const second = await run({ out });
    expect(first.runId).toMatch(/^[0-9a-f]{32}$/);
    expect(second.runId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.runId).not.toBe(second.runId);
  } finally {
    await removeFolder(out);
  }
});

test("a fleet's thousands of requests each have a span id of their own", () => {
  const spans = Array.from({ length: 3000 }, () => TRACEPARENT.exec(traceparent('0af7651916cd43dd8448eb211c80319c'))?.[2]);
  expect(spans.every((span) => span !== undefined && span !== '0000000000000000')).toBe(true);
  expect(new Set(spans).size).toBe(spans.length);
});
