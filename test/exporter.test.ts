import type { ServerResponse } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { exporterFor, rawConnection, rawRequest, samples, scrape, statusOf, trickle, writeTargets } from './helpers/exporter.js';
import { serveHttp, type LoopbackServer } from './helpers/loopback-server.js';
import { execCli } from './helpers/run-cli.js';
import { startListeningCli } from './helpers/serve-cli.js';
import type { RunningExporter } from '../src/exporter/server.js';
import { removeFolder, SAFETY_NET_MS } from './helpers/safety-net.js';
import { sampleReport } from './helpers/sample-report.js';
import { probeMetrics, runSeries } from '../src/exporter/probe-metrics.js';
import type { RunError } from '../src/errors.js';
import { cli } from '../src/cli/cli.js';
import { processIo, type CommandIo } from '../src/cli/io.js';

const TOKEN = 'exporter-token-Zq81vP';
const opened: { close(): Promise<void> }[] = [];
const track = <T extends { close(): Promise<void> }>(thing: T): T => {
  opened.push(thing);
  return thing;
};
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function reference(variants: string[] = []): Promise<RunningReferenceServer> {
  return track(await startReferenceServer({ token: TOKEN, variants }));
}

/** A front that counts what reaches the reference server behind it. */
async function countedReference(): Promise<LoopbackServer & { upstream: RunningReferenceServer }> {
  const upstream = await reference();
  const { switchFront } = await import('./helpers/switch-front.js');
  const front = track(await switchFront(upstream.url));
  return Object.assign(front, { upstream });
}

const probe = (exporter: RunningExporter, name: string, headers: Record<string, string> = {}) =>
  scrape(`${exporter.url}/probe?target=${encodeURIComponent(name)}`, headers);

describe('GET /probe', () => {
  test('a conforming target and a faulty one: verdict, requirements, diagnosis, requests, each as series', async () => {
    const good = await reference();
    const stripped = await reference(['authorization-stripped']);
    const exporter = track(
      await exporterFor([
        { name: 'good', baseUrl: good.url, token: TOKEN },
        { name: 'stripped', baseUrl: stripped.url, token: TOKEN },
      ]),
    );
    const healthy = samples((await probe(exporter, 'good')).text);
    expect(healthy.get('ticketing_conformance_judged')).toBe(1);
    expect(healthy.get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(healthy.get('ticketing_conformance_exit_code')).toBe(0);
    expect(
      healthy.get('ticketing_conformance_requirement{requirement="AUTH-TOKEN-ACCEPTED",level="MUST",verdict="pass",outcome="passed"}'),
    ).toBe(1);
    expect([...healthy.keys()].filter((key) => key.startsWith('ticketing_conformance_diagnosis'))).toEqual([]);
    expect(healthy.get('ticketing_conformance_run_requests')).toBeGreaterThan(0);

    const answer = await probe(exporter, 'stripped');
    expect(answer.status).toBe(200);
    const broken = samples(answer.text);
    expect(broken.get('ticketing_conformance_verdict{verdict="not-conformant"}')).toBe(1);
    expect(broken.get('ticketing_conformance_exit_code')).toBe(1);
    expect(
      broken.get('ticketing_conformance_requirement{requirement="AUTH-TOKEN-ACCEPTED",level="MUST",verdict="fail",outcome="failed"}'),
    ).toBe(1);
    expect(
      broken.get('ticketing_conformance_diagnosis{diagnosis="authorization-header-stripped",party="environment",confidence="medium"}'),
    ).toBe(1);
    // Every series is the exporter's, and no label carries an address, a message or the token.
    expect([...broken.keys()].every((key) => key.startsWith('ticketing_conformance_'))).toBe(true);
    expect(answer.text).not.toContain(TOKEN);
    expect(answer.text).not.toContain('127.0.0.1');
  });

  test('a target whose only miss is a SHOULD: no failure in any series, exit code 0; with --strict a failure in each, exit code 1', async () => {
    const bom = await reference(['utf8-bom']);
    const failures = async (runOptions: string[]): Promise<Record<string, number | undefined>> => {
      const exporter = track(await exporterFor([{ name: 'bom', baseUrl: bom.url, token: TOKEN }], { runOptions }));
      const series = samples((await probe(exporter, 'bom')).text);
      const outcomeOf = (requirement: string): string | undefined =>
        [...series.keys()]
          .find((key) => key.startsWith(`ticketing_conformance_requirement{requirement="${requirement}",`))
          ?.match(/outcome="(\w+)"/)?.[1];
      return {
        exitCode: series.get('ticketing_conformance_exit_code'),
        notConformant: series.get('ticketing_conformance_verdict{verdict="not-conformant"}'),
        failedRequirements: [...series].filter(
          ([key, value]) => key.startsWith('ticketing_conformance_requirement{') && key.includes('outcome="failed"') && value === 1,
        ).length,
        failedOutcomes: series.get('ticketing_conformance_outcomes{outcome="failed"}'),
        warnedOutcomes: series.get('ticketing_conformance_outcomes{outcome="warned"}'),
        bomOutcome: outcomeOf('ENV-NO-BOM') === 'failed' ? 1 : 0,
      };
    };
    expect(await failures([])).toEqual({
      exitCode: 0,
      notConformant: 0,
      failedRequirements: 0,
      failedOutcomes: 0,
      warnedOutcomes: 1,
      bomOutcome: 0,
    });
    expect(await failures(['--strict'])).toEqual({
      exitCode: 1,
      notConformant: 1,
      failedRequirements: 1,
      failedOutcomes: 1,
      warnedOutcomes: 0,
      bomOutcome: 1,
    });
  });

  test('an unknown name, an address in its place, or no name: 400 with one line, and nothing is sent anywhere', async () => {
    const target = await countedReference();
    const elsewhere = track(await serveHttp((_request, response) => response.end('{}')));
    const exporter = track(await exporterFor([{ name: 'known', baseUrl: target.url, token: TOKEN }]));
    for (const name of ['nope', elsewhere.url, `${elsewhere.url}/api`, 'KNOWN', 'known ']) {
      const answer = await probe(exporter, name);
      expect(answer.status).toBe(400);
      expect(answer.text.trim().split('\n')).toHaveLength(1);
      expect(answer.text).toContain('not a name in the targets file');
    }
    for (const query of ['', '?target=', '?target=known&target=nope']) {
      const answer = await scrape(`${exporter.url}/probe${query}`);
      expect(answer.status).toBe(400);
      expect(answer.text.trim().split('\n')).toHaveLength(1);
    }
    expect(elsewhere.requests).toEqual([]);
    expect(target.requests).toEqual([]);
    const own = samples((await scrape(`${exporter.url}/metrics`)).text);
    expect(own.get('ticketing_conformance_exporter_probes_total{result="unknown_target"}')).toBe(5);
    expect(own.get('ticketing_conformance_exporter_probes_total{result="bad_request"}')).toBe(3);
    expect(own.get('ticketing_conformance_exporter_runs_started_total')).toBe(0);
  });

  test('concurrent probes of one target share one run; a result that finished less than --min-interval ago is reused', async () => {
    const target = await countedReference();
    const exporter = track(await exporterFor([{ name: 'shared', baseUrl: target.url, token: TOKEN }], { minIntervalMs: 600_000 }));
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => probe(exporter, 'shared')));
    const runs = answers.map((answer) => samples(answer.text));
    const sent = runs[0]?.get('ticketing_conformance_run_requests') ?? 0;
    expect(sent).toBeGreaterThan(0);
    // One run's worth of requests reached the target, however many probes asked.
    expect(target.requests.length).toBe(sent);
    expect(runs.filter((run) => run.get('ticketing_conformance_run_reused') === 1)).toHaveLength(4);
    expect(new Set(runs.map((run) => run.get('ticketing_conformance_run_timestamp_seconds'))).size).toBe(1);

    const later = samples((await probe(exporter, 'shared')).text);
    expect(later.get('ticketing_conformance_run_reused')).toBe(1);
    expect(target.requests.length).toBe(sent);
    const own = samples((await scrape(`${exporter.url}/metrics`)).text);
    expect(own.get('ticketing_conformance_exporter_runs_started_total')).toBe(1);
    expect(own.get('ticketing_conformance_exporter_runs_reused_total')).toBe(5);
    expect(own.get('ticketing_conformance_exporter_runs_in_flight')).toBe(0);
    // The judging thread's heap, which the process's own nodejs_heap_used_bytes leaves out, is read from the thread.
    expect(own.get('ticketing_conformance_exporter_judging_thread_heap_used_bytes')).toBeGreaterThan(1_000_000);
  });

  test('a target probed at a steady pace gets its run ahead of its next probe, which takes it as its own run', async () => {
    const target = await countedReference();
    // The schedule reads a clock of the test's, so the pace is steady however long each run takes on this machine.
    const periodMs = 3500;
    let clockMs = Date.now();
    const schedule = { leadMs: 400, windowMs: 400, tolerance: 0.05, clock: () => clockMs };
    const exporter = track(await exporterFor([{ name: 'steady', baseUrl: target.url, token: TOKEN }], { minIntervalMs: 2000, schedule }));
    const own = async () => samples((await scrape(`${exporter.url}/metrics`)).text);
    const firstAt = clockMs;
    for (const slot of [0, 1, 2]) {
      clockMs = firstAt + slot * periodMs;
      expect((await probe(exporter, 'steady')).status).toBe(200);
    }
    expect((await own()).get('ticketing_conformance_exporter_runs_ahead_total')).toBe(0);
    // The third probe made the pace steady: the fourth is foreseen, and its run starts a lead before it comes.
    clockMs = firstAt + 3 * periodMs - 600;
    await vi.waitFor(
      async () => {
        const metrics = await own();
        expect(metrics.get('ticketing_conformance_exporter_runs_ahead_total')).toBe(1);
        expect(metrics.get('ticketing_conformance_exporter_runs_in_flight')).toBe(0);
      },
      { timeout: SAFETY_NET_MS, interval: 50 },
    );
    clockMs = firstAt + 3 * periodMs;
    const sentAt = Date.now();
    const fourth = samples((await probe(exporter, 'steady')).text);
    expect(fourth.get('ticketing_conformance_judged')).toBe(1);
    expect(fourth.get('ticketing_conformance_run_reused')).toBe(0);
    expect((fourth.get('ticketing_conformance_run_timestamp_seconds') ?? Infinity) * 1000).toBeLessThan(sentAt);
    // No run was made twice: one run for each probe, the fourth's started ahead of it.
    const metrics = await own();
    expect(metrics.get('ticketing_conformance_exporter_runs_started_total')).toBe(4);
    expect(metrics.get('ticketing_conformance_exporter_runs_reused_total')).toBe(0);
    expect(target.requests.length).toBe(4 * (fourth.get('ticketing_conformance_run_requests') ?? 0));
  });

  test('with --min-interval 0 each probe is a new run, and every request is a GET within the budget', async () => {
    const target = await countedReference();
    const exporter = track(await exporterFor([{ name: 'fresh', baseUrl: target.url, token: TOKEN, maxRequests: 6 }]));
    const first = samples((await probe(exporter, 'fresh')).text);
    const second = samples((await probe(exporter, 'fresh')).text);
    expect(first.get('ticketing_conformance_run_reused')).toBe(0);
    expect(second.get('ticketing_conformance_run_reused')).toBe(0);
    expect(target.requests.every((request) => request.method === 'GET')).toBe(true);
    // The budget of 6 requests is spent, so the run cannot judge everything, and says why.
    expect(target.requests.length).toBeLessThanOrEqual(12);
    expect(first.get('ticketing_conformance_run_requests')).toBeLessThanOrEqual(6);
    expect(first.get('ticketing_conformance_judged')).toBe(0);
    expect(first.get('ticketing_conformance_run_error{code="HARNESS_REQUEST_BUDGET",party="suite"}')).toBe(1);
    const own = samples((await scrape(`${exporter.url}/metrics`)).text);
    expect(own.get('ticketing_conformance_exporter_runs_started_total')).toBe(2);
    expect(own.get('ticketing_conformance_exporter_run_errors_total')).toBe(2);
  });

  test('a target that does not answer does not hold up another: the other is judged while the first still waits', async () => {
    // The silent target holds every request until the test lets it go (a connection reset), so the order is not a race.
    const held: ServerResponse[] = [];
    let released = false;
    const silent = track(
      await serveHttp((_request, response) => {
        if (released) response.socket?.destroy();
        else held.push(response);
      }),
    );
    const good = await reference();
    const exporter = track(
      await exporterFor([
        { name: 'silent', baseUrl: silent.url, token: TOKEN },
        { name: 'good', baseUrl: good.url, token: TOKEN },
      ]),
    );
    const order: string[] = [];
    const slow = probe(exporter, 'silent').then((answer) => {
      order.push('silent');
      return answer;
    });
    while (silent.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const quick = await probe(exporter, 'good');
    order.push('good');
    expect(samples(quick.text).get('ticketing_conformance_verdict{verdict="conformant"}')).toBe(1);
    expect(order).toEqual(['good']);
    released = true;
    for (const response of held) response.socket?.destroy();
    const stuck = samples((await slow).text);
    expect(order).toEqual(['good', 'silent']);
    expect(stuck.get('ticketing_conformance_judged')).toBe(0);
  });

  test('a target that never answers: its probe answers by the scrape time-out, without a verdict', async () => {
    const silent = track(await serveHttp(() => undefined));
    const exporter = track(await exporterFor([{ name: 'silent', baseUrl: silent.url, token: TOKEN }]));
    const stuck = samples((await probe(exporter, 'silent', { 'X-Prometheus-Scrape-Timeout-Seconds': '2' })).text);
    expect(stuck.get('ticketing_conformance_judged')).toBe(0);
    // Either the run stopped at its deadline and says so, or the answer came at the scrape's time-out without it.
    const deadline = stuck.get('ticketing_conformance_run_error{code="HARNESS_DEADLINE",party="environment"}');
    expect(deadline === 1 || stuck.get('ticketing_conformance_run_finished') === 0).toBe(true);
  });

  test('a target that echoes the token back finds it in no series and no label', async () => {
    const echo = track(
      await serveHttp((request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'x-echo': String(request.headers.authorization) });
        response.end(JSON.stringify({ status: 'error', message: String(request.headers.authorization), data: [] }));
      }),
    );
    const exporter = track(await exporterFor([{ name: 'echo', baseUrl: echo.url, token: TOKEN }]));
    const answer = await probe(exporter, 'echo');
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(TOKEN);
    expect(answer.text).not.toContain(Buffer.from(`${TOKEN}:x`).toString('base64'));
    expect((await scrape(`${exporter.url}/metrics`)).text).not.toContain(TOKEN);
  });
});

describe('the text of a probe answer', () => {
  test('a label value with a quote, a backslash or a line break is escaped, and every line is a comment or one sample', () => {
    const report = sampleReport();
    // Codes are a closed set: the cast stands for whatever a label may one day hold.
    const odd = { code: 'CODE "quoted" \\ back\nslash', message: 'm', hint: 'h', party: 'suite' } as unknown as RunError;
    const text = probeMetrics({ series: runSeries({ ...report, errors: [...report.errors, odd] }), reused: false });
    expect(text).toContain('ticketing_conformance_run_error{code="CODE \\"quoted\\" \\\\ back\\nslash",party="suite"} 1\n');
    const sample = /^ticketing_conformance_[a-z_]+(\{([a-z_]+="([^"\\\n]|\\["\\n])*",?)+\})? -?\d+(\.\d+)?$/;
    const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('# HELP ') && !line.startsWith('# TYPE '));
    expect(lines.length).toBeGreaterThan(40);
    expect(lines.filter((line) => !sample.test(line))).toEqual([]);
    expect(text.endsWith('ticketing_conformance_run_reused 0\n')).toBe(true);
  });
});

describe('the other paths', () => {
  test('/metrics has the exporter counters; other paths 404, other methods 405', async () => {
    const exporter = track(await exporterFor([{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }]));
    const own = samples((await scrape(`${exporter.url}/metrics`)).text);
    for (const name of ['runs_started_total', 'runs_reused_total', 'run_errors_total', 'runs_in_flight', 'targets']) {
      expect(own.has(`ticketing_conformance_exporter_${name}`)).toBe(true);
    }
    expect(own.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await scrape(`${exporter.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${exporter.url}/probe?target=any`, { method: 'POST' })).status).toBe(405);
  });
});

describe('whatever reaches the port', () => {
  test('malformed and foreign request lines each get an answer, nothing is sent anywhere, and the exporter carries on', async () => {
    const elsewhere = track(await serveHttp((_request, response) => response.end('{}')));
    const other = new URL(elsewhere.url).host;
    const exporter = track(await exporterFor([{ name: 'known', baseUrl: elsewhere.url, token: TOKEN }]));
    const lines: [string, number][] = [
      ['GET http://[ HTTP/1.1', 400],
      ['GET % HTTP/1.1', 400],
      ['GET * HTTP/1.1', 400],
      ['GET http://exporter:99999/metrics HTTP/1.1', 400],
      ['GET ftp://exporter/metrics HTTP/1.1', 400],
      ['POST http://[ HTTP/1.1', 400],
      ['GET /probe?target=%E0%A4%A HTTP/1.1', 400],
      // Origin-form: a path that starts with two slashes names no host.
      ['GET // HTTP/1.1', 404],
      [`GET //${other}/metrics HTTP/1.1`, 404],
      ['GET /% HTTP/1.1', 404],
      [`GET /${'a'.repeat(8_000)} HTTP/1.1`, 404],
      [`GET /${'a'.repeat(20_000)} HTTP/1.1`, 431],
      ['GET /\u0001 HTTP/1.1', 400],
      ['\u0016\u0003\u0001\u0002\u0000', 400],
    ];
    for (const [line, status] of lines) expect(statusOf(await rawRequest(exporter.url, line)), line.slice(0, 60)).toBe(status);
    // Absolute-form names the exporter itself, whatever its host: the answer is the exporter's own, nothing is forwarded.
    const absolute = await rawRequest(exporter.url, `GET http://${other}/metrics HTTP/1.1`);
    expect(statusOf(absolute)).toBe(200);
    expect(absolute).toContain('ticketing_conformance_exporter_runs_started_total 0');
    expect(elsewhere.connections).toBe(0);
    expect((await scrape(`${exporter.url}/metrics`)).status).toBe(200);
  });

  test('a connection past the cap is closed as it arrives and counted; those held are served, then their places are free', async () => {
    // Time-outs far beyond the test's own, so that only the cap acts.
    const exporter = track(
      await exporterFor([{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }], {
        limits: { maxConnections: 3, headersTimeoutMs: 600_000, requestTimeoutMs: 600_000 },
      }),
    );
    const held = [1, 2, 3].map(() => rawConnection(exporter.url));
    await Promise.all(held.map((connection) => connection.connected));
    for (const connection of held) connection.write('GET /metrics HTTP/1.1\r\nHost: exporter\r\n');
    // Connections are accepted in the order they were made, so the one past the cap is this one.
    expect(await rawRequest(exporter.url, 'GET /metrics HTTP/1.1')).toBe('');
    for (const connection of held) connection.write('Connection: close\r\n\r\n');
    const answers = await Promise.all(held.map((connection) => connection.answer));
    expect(answers.map(statusOf)).toEqual([200, 200, 200]);
    for (const answer of answers) expect(answer).toContain('ticketing_conformance_exporter_connections_refused_total 1');
    expect((await scrape(`${exporter.url}/metrics`)).status).toBe(200);
  });

  test('connections that pipeline requests by the thousand and read nothing are cut off, and a scrape is answered meanwhile', async () => {
    // Time-outs far beyond the test's own, so that only the bound on unanswered requests acts.
    const exporter = track(
      await exporterFor([{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }], {
        limits: { headersTimeoutMs: 600_000, requestTimeoutMs: 600_000, keepAliveTimeoutMs: 600_000, answerTimeoutMs: 600_000 },
      }),
    );
    const request = 'GET /metrics HTTP/1.1\r\nHost: exporter\r\n\r\n';
    const floods = [1, 2, 3].map(() => {
      const socket = connect(Number(new URL(exporter.url).port), '127.0.0.1');
      socket.pause();
      socket.on('error', () => undefined);
      socket.write(request.repeat(20_000));
      // It goes on sending, which is how a client that reads nothing learns that the exporter closed the connection.
      const more = setInterval(() => socket.write(request), 20);
      return new Promise<void>((resolve) => socket.once('close', () => resolve(clearInterval(more))));
    });
    expect((await scrape(`${exporter.url}/metrics`)).status).toBe(200);
    await Promise.all(floods);
    // A client that pipelines a few requests is answered, each in turn.
    const few = rawConnection(exporter.url);
    few.write(
      'GET /metrics HTTP/1.1\r\nHost: exporter\r\n\r\n'.repeat(3) + 'GET / HTTP/1.1\r\nHost: exporter\r\nConnection: close\r\n\r\n',
    );
    const answers = (await few.answer).split(/(?=HTTP\/1\.1 )/);
    expect(answers.map(statusOf)).toEqual([200, 200, 200, 200]);
    expect(answers[3]).toContain('ticketing-conformance exporter');
  });

  test('a connection that reads none of its answers is cut off once they no longer fit in its buffers', async () => {
    // Only the answer's time-out acts: pipelined requests are not capped here, and the other time-outs are far away.
    const exporter = track(
      await exporterFor([{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }], {
        limits: {
          headersTimeoutMs: 600_000,
          requestTimeoutMs: 600_000,
          keepAliveTimeoutMs: 600_000,
          answerTimeoutMs: 200,
          maxUnansweredRequests: 1_000_000,
        },
      }),
    );
    const socket = connect(Number(new URL(exporter.url).port), '127.0.0.1');
    socket.pause();
    socket.on('error', () => undefined);
    const request = 'GET /nothing HTTP/1.1\r\nHost: exporter\r\n\r\n';
    // Far more answers than the connection's buffers hold, each small and cheap to make.
    socket.write(request.repeat(40_000));
    const more = setInterval(() => socket.write(request), 20);
    await new Promise<void>((resolve) => socket.once('close', () => resolve(clearInterval(more))));
    expect((await scrape(`${exporter.url}/metrics`)).status).toBe(200);
  });

  test('connections that send nothing, trickle their headers or body, or idle after an answer are closed by the time-outs', async () => {
    const exporter = track(
      await exporterFor([{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }], {
        limits: { maxConnections: 4, headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 200, timeoutCheckIntervalMs: 50 },
      }),
    );
    const silent = rawConnection(exporter.url);
    const slowHeaders = rawConnection(exporter.url);
    const slowBody = rawConnection(exporter.url);
    const keptAlive = rawConnection(exporter.url);
    trickle(slowHeaders, 'GET /metrics HTTP/1.1\r\n', 'x-slow: 1\r\n');
    trickle(slowBody, 'POST /metrics HTTP/1.1\r\nHost: exporter\r\nContent-Length: 100000\r\n\r\n', 'x');
    keptAlive.write('GET /metrics HTTP/1.1\r\nHost: exporter\r\n\r\n');
    expect(statusOf(await silent.answer)).toBe(408);
    expect(statusOf(await slowHeaders.answer)).toBe(408);
    expect(statusOf(await slowBody.answer)).toBe(405);
    expect(statusOf(await keptAlive.answer)).toBe(200);
    // They held every place the cap gives; dropped, they leave room for a scrape.
    expect((await scrape(`${exporter.url}/metrics`)).status).toBe(200);
  });
});

describe('the command line', () => {
  test.each([
    [['exporter'], 'the exporter needs --targets FILE'],
    [['exporter', '--targets', 'targets.yaml', '--base-url', 'http://127.0.0.1:9'], '--base-url does not apply to the exporter'],
    [['exporter', '--targets', 'missing.yaml'], 'missing.yaml'],
    [['exporter', '--listen', 'nowhere', '--targets', 'missing.yaml'], 'missing.yaml'],
  ])('%j stops with one line and exit 2', async (args, message) => {
    const result = await execCli(args, process.cwd());
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });

  test.each(['listen', 'min-interval'])("--%s holding a target's token is refused without quoting it", async (flag) => {
    const dir = await mkdtemp(join(tmpdir(), 'exporter-cli-'));
    track({ close: () => removeFolder(dir) });
    const { file, env } = await writeTargets(dir, [{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }]);
    const errors: string[] = [];
    const io: CommandIo = { ...processIo(), log: () => undefined, error: (line) => errors.push(line), env, dotenvPath: join(dir, '.env') };
    expect(await cli(['exporter', '--targets', file, `--${flag}`, TOKEN], io)).toBe(2);
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^CONFIG_INVALID: --${flag} \\(not quoted: it holds the API token\\) is not `)),
    ]);
  });

  /** What the exporter's command writes on stderr, listening there over a target it is never asked to probe, until stopped. */
  async function exporterStderr(listen: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'exporter-cli-'));
    track({ close: () => removeFolder(dir) });
    const { file, env } = await writeTargets(dir, [{ name: 'any', baseUrl: 'http://127.0.0.1:9', token: TOKEN }]);
    const cli = await startListeningCli(['exporter', '--targets', file, '--listen', listen], /Exporter at (\S+) for/, { cwd: dir, env });
    await cli.stop();
    return cli.stderr();
  }

  test('--listen 0.0.0.0 warns in one line that the exporter is reachable beyond this machine and asks for no authentication', async () => {
    expect(await exporterStderr('0.0.0.0:0')).toMatch(/^WARNING EXPORTER_NOT_LOOPBACK: [^\n]*0\.0\.0\.0[^\n]* no authentication[^\n]*\n$/);
  });

  test('--listen 127.0.0.1 gives no warning', async () => {
    expect(await exporterStderr('127.0.0.1:0')).toBe('');
  });
});
