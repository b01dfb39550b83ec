import type { IncomingHttpHeaders } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { CLIENT_MAX_NESTING, phpIntCast } from '../src/judge/checks/php-client.js';
import { validator } from '../src/validators/schemas.js';
import type { Report, RequirementResult } from '../src/report/model/types.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { rewritingFront, type Rewrite as FrontRewrite } from './helpers/rewriting-front.js';
import { markdownText } from '../src/report/views/escape/markdown.js';
import type { CliRun } from './helpers/run-cli.js';

const TOKEN = 'official-client-token-5c3e91';
const { inProcess, cleanUpAfterAll } = fileResources();
/** Runs judged on their own, by a spec runner of their own, as the CLI judges one run: no other run's profile in the batch. */
const alone = fileResources({ ownSpecRunner: true }).inProcess;

/** What a server does to the answer the official client's request gets: a new HTTP status, body or headers. */
type Rewrite = (answer: { status: number; body: string }) => ReturnType<FrontRewrite>;

/** The official client's request, as the server sees it: Guzzle's User-Agent (the suite's own requests carry the suite's). */
const fromOfficialClient = (headers: IncomingHttpHeaders): boolean => headers['user-agent'] === 'GuzzleHttp/7';

interface ClientTarget {
  url: string;
  /** The headers of every request the server received. */
  seen: IncomingHttpHeaders[];
}

/**
 * A reference server whose answer to the official client's request is rewritten: every other request is answered as
 * the reference answers it, so what the document requires still holds and only the client's checks can tell.
 */
async function clientTarget(rewrite?: Rewrite, variants: string[] = []): Promise<ClientTarget> {
  const reference: RunningReferenceServer = await startReferenceServer({ token: TOKEN, variants });
  cleanUpAfterAll(() => reference.close());
  const seen: IncomingHttpHeaders[] = [];
  const front = await rewritingFront(reference.url, (answer, request) => {
    seen.push(request.headers);
    return rewrite && fromOfficialClient(request.headers) ? rewrite(answer) : {};
  });
  cleanUpAfterAll(() => front.close());
  return { url: front.url, seen };
}

/** The envelope with data changed as given. */
const withData =
  (change: (data: Record<string, unknown>) => Record<string, unknown>): Rewrite =>
  ({ body }) => {
    const envelope = JSON.parse(body) as { data: Record<string, unknown> };
    return { body: JSON.stringify({ ...envelope, data: change(envelope.data) }) };
  };

/** A body whose JSON is nested `depth` levels: the envelope, data, and arrays inside data's icon. */
const nestedTo =
  (depth: number): Rewrite =>
  ({ body }) => {
    const arrays = depth - 2;
    const text = JSON.stringify(JSON.parse(body)).replace('"data":{', `"data":{"icon":${'['.repeat(arrays)}${']'.repeat(arrays)},`);
    return { body: text };
  };

const CLOUDFLARE_BLOCK_PAGE =
  '<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1><p>Cloudflare Ray ID: 8a1b2c3d4e5f6071</p></body></html>';

interface Case {
  rewrite?: Rewrite;
  variants?: string[];
  args?: string[];
  /** Judged by a spec runner of its own rather than in the file's batch. */
  ownSpecRunner?: boolean;
}

const CASES = {
  reference: {},
  'reference without the profile': { args: [], ownSpecRunner: true },
  'utf8-bom': { variants: ['utf8-bom'] },
  'php-notice-before-json': { variants: ['php-notice-before-json'] },
  'noise after the JSON': { rewrite: ({ body }) => ({ body: `${body}\n<!-- served in 12 ms -->` }) },
  // Every view, for the profile's section in each.
  'HTTP 201': { rewrite: () => ({ status: 201 }), args: ['--profile', 'official-client', '--reports', REPORT_KINDS.join(',')] },
  'HTTP 203': { rewrite: () => ({ status: 203 }) },
  'HTTP 201 with --strict': { rewrite: () => ({ status: 201 }), args: ['--profile', 'official-client', '--strict'] },
  'status missing': {
    rewrite: ({ body }) => {
      const envelope = Object.entries(JSON.parse(body) as Record<string, unknown>).filter(([field]) => field !== 'status');
      return { body: JSON.stringify(Object.fromEntries(envelope)) };
    },
  },
  'status "error" with HTTP 200': {
    rewrite: ({ body }) => ({ body: JSON.stringify({ ...(JSON.parse(body) as object), status: 'error' }) }),
  },
  'data null': { rewrite: ({ body }) => ({ body: JSON.stringify({ ...(JSON.parse(body) as object), data: null }) }) },
  'nested 511 levels': { rewrite: nestedTo(CLIENT_MAX_NESTING) },
  'nested 512 levels': { rewrite: nestedTo(CLIENT_MAX_NESTING + 1) },
  'nested 513 levels': { rewrite: nestedTo(CLIENT_MAX_NESTING + 2) },
  'an unpaired surrogate': { rewrite: ({ body }) => ({ body: body.replace('"Open"', '"Open \\ud800"') }) },
  'id "abc"': { rewrite: withData((data) => ({ ...data, id: 'abc' })) },
  'id "1", a string PHP reads as 1': { rewrite: withData((data) => ({ ...data, id: '1' })) },
  'created-at-iso-string': { variants: ['created-at-iso-string'] },
  "a WAF's block page": {
    rewrite: () => ({
      status: 403,
      body: CLOUDFLARE_BLOCK_PAGE,
      headers: { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' },
    }),
  },
} satisfies Record<string, Case>;
type CaseName = keyof typeof CASES;

interface Outcome {
  run: CliRun;
  target: ClientTarget;
}

async function runCase({ rewrite, variants, args = ['--profile', 'official-client'], ownSpecRunner }: Case): Promise<Outcome> {
  const target = await clientTarget(rewrite, variants);
  const run = await (ownSpecRunner ? alone : inProcess).run(['--base-url', target.url, '--token', TOKEN, ...args]);
  cleanUpAfterAll(run.cleanup);
  return { run, target };
}

/** Every case is recorded at once, and the recordings judged together by the file's spec runner. */
let outcomeOf: (name: CaseName) => Promise<Outcome>;
beforeAll(async () => {
  const started = startAll(Object.entries(CASES).map(([name, entry]) => [name, () => runCase(entry as Case)]));
  outcomeOf = (name) => started.outcome(name);
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

const clientResults = (report: Report | undefined): RequirementResult[] =>
  (report?.requirements ?? []).filter((result) => result.level === 'CLIENT');
const verdictsOf = (report: Report | undefined): Record<string, string> =>
  Object.fromEntries(clientResults(report).map((result) => [result.id, result.verdict]));
const resultOf = (report: Report | undefined, id: string): RequirementResult | undefined =>
  report?.requirements.find((result) => result.id === id);
const failureOf = (report: Report | undefined, id: string): string =>
  resultOf(report, id)
    ?.checks.filter((check) => check.verdict === 'fail')
    .map((check) => check.actual ?? '')
    .join('; ') ?? '';
/** The CLIENT requirements that failed, each once. */
const failing = (report: Report | undefined): string[] =>
  clientResults(report)
    .filter((result) => result.verdict === 'warn')
    .map((result) => result.id);

describe('against the reference server', () => {
  test('every check of the client passes, and the report says the client would work', async () => {
    const { run } = await outcomeOf('reference');
    expect(run.code).toBe(0);
    expect(Object.values(verdictsOf(run.report))).toEqual(Array(6).fill('pass'));
    expect(run.report?.profile).toMatchObject({ name: 'official-client', outcome: 'would-work' });
    expect(run.report?.profile?.client).toEqual({
      repository: 'supportpal/api-client-php',
      version: 'v2.5.0',
      commit: '6581207033543652d88c8516b09bb80eddafdc25',
    });
    expect(validator('report')(run.report)).toBe(true);
  });

  test("one more GET, sent as the client sends it: Basic token:X, Content-Type: application/json, Guzzle's User-Agent, no Accept", async () => {
    const { run, target } = await outcomeOf('reference');
    const without = await outcomeOf('reference without the profile');
    expect(target.seen.length).toBe(without.target.seen.length + 1);
    expect(run.report?.requests.sent).toBe(target.seen.length);
    const client = target.seen.filter(fromOfficialClient);
    expect(client).toHaveLength(1);
    expect(client[0]).toMatchObject({
      authorization: `Basic ${Buffer.from(`${TOKEN}:X`).toString('base64')}`,
      'content-type': 'application/json',
    });
    expect(client[0]?.accept).toBeUndefined();
    expect(client[0]?.['accept-encoding']).toBeUndefined();
    expect(run.report?.exchanges['official-client /api/ticket/status/1?']?.repro).toContain("-H 'Content-Type: application/json'");
  });

  test('without --profile nothing changes: no request of the client, no CLIENT requirement, no profile section', async () => {
    const { run, target } = await outcomeOf('reference without the profile');
    expect(run.report?.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(target.seen.filter(fromOfficialClient)).toEqual([]);
    expect(clientResults(run.report)).toEqual([]);
    expect(run.report?.profile).toBeUndefined();
    expect(run.report?.options.profile).toBeUndefined();
    expect(run.stdout).not.toContain('official client');
  });
});

describe('each check goes red against a server that breaks it, and the run still passes without --strict', () => {
  test.each([
    ['utf8-bom', ['CLIENT-PHP-JSON-DECODE'], /byte order mark/],
    ['php-notice-before-json', ['CLIENT-PHP-JSON-DECODE'], /character\(s\) before and 0 after the JSON/],
    ['noise after the JSON', ['CLIENT-PHP-JSON-DECODE'], /0 character\(s\) before and \d+ after the JSON/],
    ['nested 512 levels', ['CLIENT-PHP-JSON-DECODE'], /nested 512 levels deep: json_decode throws "Maximum stack depth exceeded"/],
    ['nested 513 levels', ['CLIENT-PHP-JSON-DECODE'], /nested 513 levels deep/],
    ['an unpaired surrogate', ['CLIENT-PHP-JSON-DECODE'], /Single unpaired UTF-16 surrogate/],
    ['HTTP 201', ['CLIENT-PHP-HTTP-200'], /^HTTP 201$/],
    ['HTTP 203', ['CLIENT-PHP-HTTP-200'], /^HTTP 203$/],
    ['status missing', ['CLIENT-PHP-STATUS-SET'], /status: absent/],
    ['status "error" with HTTP 200', ['CLIENT-PHP-STATUS-NOT-ERROR'], /status: "error"/],
    ['data null', ['CLIENT-PHP-DATA-ARRAY'], /createStatusModel\(array \$data\) throws a TypeError/],
    ['id "abc"', ['CLIENT-PHP-INT-CAST'], /id "abc" is read as 0/],
    ['created-at-iso-string', ['CLIENT-PHP-INT-CAST'], /created_at "\d{4}-[^"]+" is read as \d{4}/],
  ] as const)('%s: %j', async (name, ids, actual) => {
    const { run } = await outcomeOf(name);
    expect(failing(run.report)).toEqual(ids);
    expect(failureOf(run.report, ids[0])).toMatch(actual);
    expect(run.report?.profile?.outcome).toBe('would-fail');
    expect(run.report?.profile?.summary).toContain(`The official client would fail here (${ids[0]})`);
    expect(run.report?.profile?.summary).toContain(resultOf(run.report, ids[0])?.section ?? 'no section');
    expect(run.stdout).toContain(`The official client would fail here (${ids[0]})`);
    expect(validator('report')(run.report)).toBe(true);
  });

  test('a CLIENT failure does not change the exit code: the document still holds', async () => {
    for (const name of ['HTTP 201', 'status "error" with HTTP 200', 'id "abc"'] as const) {
      const { run } = await outcomeOf(name);
      expect(run.report?.verdict, name).toBe('conformant');
      expect(run.code, name).toBe(0);
    }
  });

  test('with --strict a CLIENT failure fails the run', async () => {
    const { run } = await outcomeOf('HTTP 201 with --strict');
    expect(failing(run.report)).toEqual(['CLIENT-PHP-HTTP-200']);
    expect(run.report?.verdict).toBe('not-conformant');
    expect(run.code).toBe(1);
    expect(run.report?.summary).toContain('CLIENT-PHP-HTTP-200');
  });

  test('what the client reads as the server meant passes: 511 levels of nesting, id "1"', async () => {
    for (const name of ['nested 511 levels', 'id "1", a string PHP reads as 1'] as const) {
      const { run } = await outcomeOf(name);
      expect(failing(run.report), name).toEqual([]);
      expect(verdictsOf(run.report)['CLIENT-PHP-JSON-DECODE'], name).toBe('pass');
    }
  });
});

test("a WAF's block page to the client's request is not the client failing on the API: not judged, and said so", async () => {
  const { run } = await outcomeOf("a WAF's block page");
  expect(failing(run.report)).toEqual([]);
  expect(new Set(Object.values(verdictsOf(run.report)))).toEqual(new Set(['skip']));
  const decode = resultOf(run.report, 'CLIENT-PHP-JSON-DECODE');
  expect(decode?.checks[0]?.error?.code).toBe('HARNESS_NOT_THE_API');
  expect(run.report?.profile?.outcome).toBe('not-judged');
  expect(run.report?.profile?.summary).toMatch(/could not be judged: not judged: .*Cloudflare/);
  expect(run.code).toBe(0);
});

test('the report shows the profile in a section of its own, in every view', async () => {
  const { run } = await outcomeOf('HTTP 201');
  const files = await run.files();
  const text = (suffix: string): string => files.find((file) => file.path.endsWith(suffix))?.content.toString('utf8') ?? '';
  const summary = run.report?.profile?.summary ?? 'no summary';
  const heading = 'The official client: what supportpal/api-client-php v2.5.0 (6581207) would make of this server';
  expect(run.stdout).toContain(heading);
  // The document's failures come before it; the client's failure is told only in its own section.
  expect(run.stdout.indexOf('CLIENT-PHP-HTTP-200 (CLIENT)')).toBeGreaterThan(run.stdout.indexOf(heading));
  expect(text('report.md')).toContain(`## ${heading}`);
  expect(text('report.md')).toContain(markdownText(summary));
  expect(text('report.html')).toContain('<h2 id="official-client">');
  expect(text('report.html')).toContain('src/Http/Client.php line 89');
});

test("PHP's (int) cast, as the client's models apply it", () => {
  expect([phpIntCast('abc'), phpIntCast('12abc'), phpIntCast(' 12'), phpIntCast('1e3'), phpIntCast(1.9), phpIntCast([1])]).toEqual([
    0, 12, 12, 1000, 1, 1,
  ]);
});
