import { describe, expect, test } from 'vitest';
import type { HarnessErrorCode } from '../src/errors.js';
import { errorCodes, expectSettledRun } from './helpers/expect-run.js';
import { hostileTargets, type HostileTarget, type HostileTargetName } from './helpers/hostile-targets.js';
import { fileResources } from './helpers/file-resources.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'hostile-token-4c8e1b77';
const { inProcess, cleanUpAfterAll } = fileResources();

interface HostileCase {
  target: HostileTargetName;
  args?: string[];
  exit: 1 | 2;
  line: RegExp;
  code?: HarnessErrorCode;
  also?(run: CliRun, target: HostileTarget): void;
  /**
   * Run by the real CLI, whose process must end by itself: where the transport gives up on a connection (a stalled
   * answer, a handshake that never ends, the deadline), nothing it abandoned may keep the command alive.
   */
  endToEnd?: true;
}

const SHORT_TIMEOUT = ['--timeout-ms', '1000'];

const cases: HostileCase[] = [
  {
    target: 'accepts-never-answers',
    endToEnd: true,
    args: SHORT_TIMEOUT,
    exit: 2,
    code: 'HARNESS_TIMEOUT',
    line: /timed out after 1000 ms waiting for the response headers \(headers time-out\)/,
  },
  {
    target: 'tls-never-handshakes',
    endToEnd: true,
    args: SHORT_TIMEOUT,
    exit: 2,
    code: 'HARNESS_TIMEOUT',
    line: /timed out after 1000 ms connecting \(connect time-out\)/,
    // The first request goes alone until a connection is made; once connecting failed, the rest is not sent.
    also: (run, target) => expect([run.report?.requests.sent, target.front.connections]).toEqual([1, 1]),
  },
  {
    target: 'headers-then-stall',
    endToEnd: true,
    args: SHORT_TIMEOUT,
    exit: 2,
    code: 'HARNESS_TIMEOUT',
    line: /timed out after 1000 ms reading the body \(0 bytes received; body time-out\)/,
  },
  {
    // A byte a second never trips an idle timer; the body as a whole must still finish in time.
    target: 'slow-drip',
    args: ['--timeout-ms', '2500'],
    exit: 2,
    code: 'HARNESS_TIMEOUT',
    line: /timed out after 2500 ms reading the body \([1-9]\d* bytes received; body time-out\)/,
  },
  {
    // Every request gets a 50 MB body: each may read its 256 KB allowance and what is left of the 2 MB they share, up to
    // the 1 MB cap, so which limit each one meets depends on how their bodies interleave.
    target: 'body-50mb',
    exit: 2,
    code: 'HARNESS_BODY_TOO_LARGE',
    line: /is larger than \d+ bytes, the most the suite reads of it/,
    also: (run) => {
      const limits = [...run.stdout.matchAll(/is larger than (\d+) bytes/g)].map((found) => Number(found[1]));
      expect(limits.length).toBeGreaterThan(0);
      for (const limit of limits) {
        expect(limit).toBeGreaterThanOrEqual(256 * 1024);
        expect(limit).toBeLessThanOrEqual(1024 * 1024);
      }
    },
  },
  { target: 'gzip-bomb', exit: 2, code: 'HARNESS_BODY_TOO_LARGE', line: /gzip response to GET .* unpacks to more than 1048576 bytes/ },
  {
    // Labelled JSON, so the application's words: they fail ENV-JSON.
    target: 'not-json',
    exit: 1,
    line: /^Diagnosis \(target, high confidence\): the API answers HTTP 2xx with a body the suite cannot read as JSON$/m,
    also: (run) => expect(run.report?.requirements.find((result) => result.id === 'ENV-JSON')?.verdict).toBe('fail'),
  },
  { target: 'invalid-utf8', exit: 1, line: /Actual: .*\(the body is not valid UTF-8\)/ },
  {
    target: 'nested-100000',
    exit: 2,
    code: 'HARNESS_SUITE_LIMIT',
    line: /not judged: the JSON is nested more than 512 levels deep, the suite's cap, so it is not read/,
  },
  { target: 'headers-10000', exit: 2, code: 'HARNESS_HEADERS_TOO_LARGE', line: /the response headers for GET .* exceed the size/ },
  { target: 'headers-300', exit: 2, code: 'HARNESS_HEADERS_TOO_LARGE', line: /the response headers for GET .* are more than 256 headers/ },
  {
    target: 'header-name-1000',
    exit: 2,
    code: 'HARNESS_HEADERS_TOO_LARGE',
    line: /the response headers for GET .* have a name longer than 256 characters/,
  },
  { target: 'header-1mb', exit: 2, code: 'HARNESS_HEADERS_TOO_LARGE', line: /the response headers for GET .* exceed the size/ },
  {
    // A redirect keeps the request from the API: no verdict, and the address it names given as the base URL to pass.
    target: 'redirect-elsewhere',
    exit: 2,
    line: /^Diagnosis \(environment, medium confidence\): the API paths answer with a redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:\d+\/.*\n(.*\n)*.*Next: The redirect names the same API at another address: pass --base-url http:\/\/127\.0\.0\.1:\d+$/m,
    also: (_run, target) => expect(target.elsewhere?.requests).toEqual([]),
  },
  {
    // Not followed, so a loop is one answer per request: the target saw exactly what the report counts.
    target: 'redirect-loop',
    exit: 2,
    line: /the API paths answer with a redirect \(HTTP 302.*\n(.*\n)*.*Next: The API path redirects to itself/,
    also: (run, target) => expect(target.front.requests.length).toBe(run.report?.requests.sent),
  },
  {
    target: 'error-500',
    exit: 1,
    line: /^Diagnosis \(target, high confidence\): the request reached the application, and the application failed: it answered with a server error/m,
    also: (run) => expect(run.report?.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['application-failed']),
  },
  {
    target: 'length-and-chunked',
    exit: 2,
    code: 'HARNESS_MALFORMED_ANSWER',
    line: /^Diagnosis \(environment, high confidence\): the target's answer is not well-formed HTTP \(HARNESS_MALFORMED_ANSWER\)/m,
  },
  {
    target: 'broken-chunk',
    exit: 2,
    code: 'HARNESS_MALFORMED_ANSWER',
    line: /is not well-formed HTTP: Response does not match the HTTP\/1\.1 protocol/,
  },
  {
    target: 'closes-mid-body',
    exit: 2,
    code: 'HARNESS_CONNECTION_RESET',
    line: /the connection closed before the response to GET .* was complete/,
  },
  {
    // The deadline cuts a run whose lang requests hang; what was judged before it stays in the report.
    target: 'lang-stalls',
    endToEnd: true,
    args: ['--deadline-ms', '8000', '--timeout-ms', '60000'],
    exit: 2,
    code: 'HARNESS_DEADLINE',
    line: /^Verdict for \S+: No verdict: the run deadline of 8000 ms passed before every scenario finished/m,
    also: (run) => {
      const verdictOf = (id: string): string | undefined => run.report?.requirements.find((result) => result.id === id)?.verdict;
      expect(run.report?.complete).toBe(false);
      expect([verdictOf('AUTH-TOKEN-ACCEPTED'), verdictOf('STATUS-COLOUR')]).toEqual(['pass', 'pass']);
      expect(verdictOf('LANG-TRANSLATION-REPLACES')).toBe('error');
    },
  },
];

describe.concurrent('a misbehaving target ends the run cleanly, with the problem named', () => {
  test.each(cases.map((entry) => [entry.target, entry] as const))('%s', async (_name, entry) => {
    const target = await hostileTargets[entry.target](TOKEN);
    cleanUpAfterAll(target.close);
    const args = ['--base-url', target.url, '--token', TOKEN, ...(entry.args ?? [])];
    // The others go through the run command in this process, their recordings judged by one shared spec runner.
    const run = await (entry.endToEnd ? runCli(args) : inProcess.run(args));
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, { exit: entry.exit, line: entry.line, code: entry.code, token: TOKEN, servers: target.servers });
    if (entry.exit === 2) expect(run.report?.verdict).toBe('inconclusive');
    entry.also?.(run, target);
  });

  test('a host name that does not resolve', async () => {
    const run = await inProcess.run(['--base-url', 'http://conformance-target.invalid', '--token', TOKEN]);
    cleanUpAfterAll(run.cleanup);
    await expectSettledRun(run, {
      exit: 2,
      code: 'HARNESS_DNS',
      line: /the host name of the target could not be resolved/,
      token: TOKEN,
      servers: [],
    });
    // Plain http:// to a host other than this machine: the token would cross the network readable.
    expect(run.stderr).toMatch(/^WARNING TOKEN_OVER_PLAIN_HTTP: the token travels unencrypted to conformance-target\.invalid/m);
    expect(run.report?.warnings?.map((warning) => warning.code)).toEqual(['TOKEN_OVER_PLAIN_HTTP']);
    expect(errorCodes(run.report)).toEqual(['HARNESS_DNS']);
  });
});
