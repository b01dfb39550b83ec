import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { MOST_LANGS, MOST_STATUSES, SETTINGS } from '../src/config/settings.js';
import { CONNECTION_LIMITS } from '../src/exporter/server.js';
import { SCHEDULE } from '../src/exporter/schedule.js';
import { CLOSE_AFTER_RUN_MS, KEEP_IDLE_MS, MAX_KEPT_CONNECTIONS } from '../src/exporter/kept-connections.js';
import { MAX_BATCH } from '../src/judge/judge-queue.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../src/exchange/body-text.js';
import { MAX_HEADER_BYTES, MAX_HEADER_COUNT, MAX_HEADER_NAME_CHARS } from '../src/exchange/header-bounds.js';
import { BODY_ALLOWANCE_BYTES, SHARED_BODY_BYTES, TARGET_JSON_VALUES } from '../src/http/body-budget.js';
import { DEFAULT_RETRY_AFTER_MS, MAX_RETRIES_PER_REQUEST } from '../src/http/rate-limit.js';
import { statuses } from '../src/reference-server/data.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { forward, serveHttp } from './helpers/loopback-server.js';
import { repoRoot, type CliRun } from './helpers/run-cli.js';

/*
 * The figures the docs give of the suite's own behaviour (requests a run sends, requirements, the badge, the counts
 * lines of the examples), each held to what a run against the reference server shows. A change that moves one fails
 * here, naming the page and the figure to update; so does a bound the docs state that the code no longer keeps.
 * Measured times and memory are not here: they are dated measurements, printed by the benches, never asserted.
 */

const TOKEN = 'docs-figures-token-5e1f';
const { inProcess, cleanUpAfterAll } = fileResources();

const page = (path: string): Promise<string> => readFile(join(repoRoot, path), 'utf8');

/** The one match of pattern on the page, its groups; fails naming the page when the sentence is gone or repeated. */
async function figuresOn(path: string, pattern: RegExp): Promise<string[]> {
  const text = await page(path);
  const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  expect(matches.length, `${path}: ${String(pattern)}`).toBe(1);
  return matches[0]?.slice(1) ?? [];
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
];
const inWords = (count: number): string => NUMBER_WORDS[count] ?? String(count);

let reference: CliRun;
let several: CliRun;
let twoByTwo: CliRun;
let endsInApi: CliRun;
let stripped: CliRun;
let doctorRequests: number;
let doctorRequestsForAnotherStatus: number;
let badge: string;

beforeAll(async () => {
  const server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  const strips = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
  cleanUpAfterAll(strips.close);
  // The doctor's requests, counted where they arrive.
  const front = await serveHttp((request, response) => forward(request, response, new URL(server.url)));
  cleanUpAfterAll(front.close);
  const runs = await Promise.all([
    inProcess.run(['--base-url', server.url, '--token', TOKEN, '--reports', 'json,badge']),
    inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '1,2,5', '--lang', 'fr,de']),
    inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '1,2', '--lang', 'fr,de']),
    inProcess.run(['--base-url', `${server.url}/api`, '--token', TOKEN]),
    inProcess.run(['--base-url', strips.url, '--token', TOKEN]),
  ]);
  for (const run of runs) cleanUpAfterAll(run.cleanup);
  [reference, several, twoByTwo, endsInApi, stripped] = runs as [CliRun, CliRun, CliRun, CliRun, CliRun];
  expect(reference.code, reference.stdout).toBe(0);
  expect(several.code, several.stdout).toBe(0);
  const doctor = await inProcess.exec(['doctor', '--base-url', front.url, '--token', TOKEN]);
  expect(doctor.code, doctor.stdout).toBe(0);
  doctorRequests = front.requests.length;
  const otherStatus = await inProcess.exec(['doctor', '--base-url', front.url, '--token', TOKEN, '--status-id', '2']);
  expect(otherStatus.code, otherStatus.stdout).toBe(0);
  doctorRequestsForAnotherStatus = front.requests.length - doctorRequests;
  badge = /<text[^>]*>(\d+\/\d+ MUST)<\/text>/.exec(await readFile(join(reference.outDir, 'badge.svg'), 'utf8'))?.[1] ?? 'no badge';
});

const sent = (run: CliRun): number => run.report?.requests.sent ?? Number.NaN;

test('the requests a full run sends, wherever the docs count them', async () => {
  const full = String(sent(reference));
  expect(await figuresOn('README.md', /a bounded number of them \((\d+) for a full run\)/)).toEqual([full]);
  expect(await figuresOn('docs/safety.md', /a full run sends (\d+);/)).toEqual([full]);
  expect(await figuresOn('docs/classification.md', /two of its (\d+) requests/)).toEqual([full]);
  expect(await figuresOn('docs/exporter.md', /each run is (\d+) requests/)).toEqual([full]);
  // One interval between each request and the next: 2/s spaces them half a second apart.
  expect(await figuresOn('docs/exporter.md', /\((\d+) requests at `2\/s` take at least ([\d.]+) s\)/)).toEqual([
    full,
    String((sent(reference) - 1) / 2),
  ]);
  expect(
    await figuresOn(
      'docs/several-statuses-and-languages.md',
      /one status in one language sends (\d+) requests; `--status-id 1,2,5 --lang fr,de` sends (\d+)/,
    ),
  ).toEqual([full, String(sent(several))]);
  // The second round (what the connection limit held back, and the lang requests) fits while a run sends at most twice it.
  expect(
    await figuresOn(
      'docs/several-statuses-and-languages.md',
      /two statuses in two languages fit; three statuses in two languages, (\d+) requests, need `--concurrency (\d+)`/,
    ),
  ).toEqual([String(sent(several)), String(Math.ceil(sent(several) / 2))]);
  expect(sent(twoByTwo)).toBeLessThanOrEqual(2 * SETTINGS.concurrency.default);
});

test("the doctor's requests, in the README, its page and its help", async () => {
  const count = inWords(doctorRequests);
  expect(await figuresOn('README.md', /It sends (\w+) GET requests/)).toEqual([count]);
  expect(await figuresOn('docs/doctor.md', /It sends the (\w+) GET requests the hosting rules read/)).toEqual([count]);
  expect(await figuresOn('docs/doctor.md', /a run sends the same (\w+) requests among its own/)).toEqual([count]);
  expect(await figuresOn('docs/doctor.md', /; (\w+) with a `--status-id` other than 1, which also asks for status 1\)/)).toEqual([
    inWords(doctorRequestsForAnotherStatus),
  ]);
  const help = await inProcess.exec(['doctor', '--help']);
  expect(help.stdout).toContain(`with the ${count} GET requests of the hosting rules`);
});

test('the badge of a conformant run, and the requirement series of the exporter', async () => {
  const pattern = /`conformance \\?\| (\d+\/\d+ MUST)`/g;
  const reports = await page('docs/reports.md');
  const shown = [...reports.matchAll(pattern)].map((match) => match[1]);
  expect(shown.length).toBeGreaterThan(0);
  expect(new Set(shown)).toEqual(new Set([badge]));
  expect(await figuresOn('docs/exporter.md', /one series per requirement a run judges \((\d+)\)/)).toEqual([
    String(reference.report?.requirements.length),
  ]);
});

test("the examples' counts lines in docs/reports.md are those the same runs print", async () => {
  const countsWithoutTime = (run: CliRun): string => (run.stdout.trim().split('\n').at(-1) ?? '').replace(/ in [\d.]+ s$/, ' in X s');
  const [apiCounts] = await figuresOn('docs/reports.md', /Verdict for https:\/\/help\.example\.com\/api: .*\n(0 passed, .*) in [\d.]+ s\n/);
  expect(`${apiCounts ?? ''} in X s`).toBe(countsWithoutTime(endsInApi));
  const skipped = (stripped.report?.requirements ?? []).filter((result) => result.verdict === 'skip');
  expect(await figuresOn('docs/reports.md', /SKIP {3}(\d+) requirements not judged, because the valid token was refused/)).toEqual([
    String(skipped.length),
  ]);
});

test("the bounds the docs state are the code's: the exporter's connection limits, the run's defaults, the lists' lengths", async () => {
  const limits = CONNECTION_LIMITS;
  const seconds = (ms: number): string => String(ms / 1000);
  expect(limits.timeoutCheckIntervalMs).toBe(1000);
  expect(await figuresOn('docs/exporter.md', /\*\*At most ([\d,]+) connections at once\.\*\*/)).toEqual([
    limits.maxConnections.toLocaleString('en-US'),
  ]);
  expect(
    await figuresOn(
      'docs/exporter.md',
      /A request's headers must arrive within (\d+) s and the whole request within (\d+) s, however slowly they trickle in \(checked every second\)[^.]*, and a kept-alive connection idle for (\d+) s is closed/,
    ),
  ).toEqual([seconds(limits.headersTimeoutMs), seconds(limits.requestTimeoutMs), seconds(limits.keepAliveTimeoutMs)]);
  expect(
    await figuresOn(
      'docs/exporter.md',
      /a connection with more than (\d+) requests sent and not answered is closed, and one that does not take in an answer within (\d+) s/,
    ),
  ).toEqual([String(limits.maxUnansweredRequests), seconds(limits.answerTimeoutMs)]);
  expect(
    await figuresOn(
      'docs/exporter.md',
      /last two intervals agree \(within (\d+) %\), the exporter foresees its next probe and starts that run (\d+) to (\d+) s before it/,
    ),
  ).toEqual([String(SCHEDULE.tolerance * 100), seconds(SCHEDULE.leadMs), seconds(SCHEDULE.leadMs + SCHEDULE.windowMs)]);
  expect(await figuresOn('docs/exporter.md', /foreseen in the same second, at most (\d+) \(a batch of the judging thread/)).toEqual([
    String(MAX_BATCH),
  ]);
  expect(await figuresOn('docs/exporter.md', /Runs ahead need `--min-interval` above (\d+) s/)).toEqual([
    seconds(SCHEDULE.leadMs + 2 * SCHEDULE.windowMs),
  ]);
  expect(
    await figuresOn(
      'docs/exporter.md',
      /as long as the target keeps them \(what it announces in `Keep-Alive: timeout=N`, less 2 s\) and at most (\d+) s, and at most ([\d,]+) of them/,
    ),
  ).toEqual([seconds(KEEP_IDLE_MS), MAX_KEPT_CONNECTIONS.toLocaleString('en-US')]);
  expect(await figuresOn('docs/exporter.md', /its connections are closed as each run ends for (\d+) minutes/)).toEqual([
    String(CLOSE_AFTER_RUN_MS / 60_000),
  ]);
  expect(await figuresOn('docs/safety.md', /At most ([\d,]+) connections at once; one more/)).toEqual([
    limits.maxConnections.toLocaleString('en-US'),
  ]);
  expect(
    await figuresOn(
      'docs/safety.md',
      /A request's headers within (\d+) s and the whole request within (\d+) s however slowly they trickle in, and (\d+) s for an idle kept-alive connection/,
    ),
  ).toEqual([seconds(limits.headersTimeoutMs), seconds(limits.requestTimeoutMs), seconds(limits.keepAliveTimeoutMs)]);
  expect(await figuresOn('docs/safety.md', /more than (\d+) sent and not answered, or an answer not taken in within (\d+) s/)).toEqual([
    String(limits.maxUnansweredRequests),
    seconds(limits.answerTimeoutMs),
  ]);
  expect(await figuresOn('docs/safety.md', /the default is (\d+) a run\), at most `--concurrency` at once/)).toEqual([
    String(SETTINGS.maxRequests.default),
  ]);
  expect(await figuresOn('docs/safety.md', /The whole run has a deadline \(`--deadline-ms`, (\d+) s\)/)).toEqual([
    seconds(SETTINGS.deadlineMs.default),
  ]);
  expect(await figuresOn('docs/several-statuses-and-languages.md', /At most (\d+) statuses and (\d+) languages\./)).toEqual([
    String(MOST_STATUSES),
    String(MOST_LANGS),
  ]);
});

test("the alerts table of docs/exporter.md gives each example rule's own duration and threshold", async () => {
  const rules = (
    parse(await page('examples/prometheus/alerts.yml')) as { groups: { rules: { alert: string; expr: string; for?: string }[] }[] }
  ).groups.flatMap((group) => group.rules);
  const rule = (name: string): { expr: string; for?: string } => rules.find((entry) => entry.alert === name) ?? { expr: '' };
  const minutes = (duration: string | undefined): string => String(Number(/^(\d+)m$/.exec(duration ?? '')?.[1]));
  expect(
    await figuresOn('docs/exporter.md', /\| `TicketingRequirementFailing` \| a requirement has failed the run for (\d+) minutes/),
  ).toEqual([minutes(rule('TicketingRequirementFailing').for)]);
  expect(await figuresOn('docs/exporter.md', /\| `TicketingHostingStackDiagnosis` \| [^|]* for (\d+) minutes/)).toEqual([
    minutes(rule('TicketingHostingStackDiagnosis').for),
  ]);
  expect(await figuresOn('docs/exporter.md', /\| `TicketingConformanceNotJudged` \| no verdict for (\d+) minutes/)).toEqual([
    minutes(rule('TicketingConformanceNotJudged').for),
  ]);
  const [changes, window] = /\[(\d+)h\]\) >= (\d+)$/.exec(rule('TicketingConformanceFlapping').expr)?.slice(1).reverse() ?? [];
  expect(
    await figuresOn('docs/exporter.md', /\| `TicketingConformanceFlapping` \| the verdict changed (\d+) times or more in an hour/),
  ).toEqual([changes]);
  expect(window).toBe('1');
});

test("docs/reference-server.md names the reference server's statuses and their translations as it serves them", async () => {
  const languages = (locales: string[]): string =>
    locales.length === 0
      ? 'without a translation'
      : `in ${locales.map((locale) => ({ fr: 'French', de: 'German' })[locale] ?? locale).join(' and ')}${locales.length === 1 ? ' only' : ''}`;
  const groups = new Map<string, number[]>();
  for (const status of statuses) {
    const words = languages(status.translations.map((translation) => translation.locale));
    groups.set(words, [...(groups.get(words) ?? []), status.id]);
  }
  const ids = (list: number[]): string => (list.length === 1 ? String(list[0]) : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);
  const described = [...groups].map(([words, list]) => `${ids(list)} ${words}`);
  const [count, listed] = await figuresOn('docs/reference-server.md', /It serves (\w+) statuses \(([^)]*)\)/);
  expect(count).toBe(inWords(statuses.length));
  expect(new Set(listed?.split(/, (?=\d+ (?:in|without))/))).toEqual(new Set(described));
});

test('docs/safety.md states the bounds of what the client reads and how often it asks again, as the code keeps them', async () => {
  const kib = (bytes: number): string => String(bytes / 1024);
  const grouped = (count: number): string => count.toLocaleString('en-US');
  expect(
    await figuresOn(
      'docs/safety.md',
      /each may hold (\d+) KiB freely, beyond that they share (\d+) MiB, and once one answer was cut for its size the rest keep to (\d+) KiB/,
    ),
  ).toEqual([kib(BODY_ALLOWANCE_BYTES), String(SHARED_BODY_BYTES / 1024 / 1024), kib(BODY_ALLOWANCE_BYTES)]);
  expect(await figuresOn('docs/safety.md', /headers up to (\d+) KiB, at most (\d+) of them and no name over (\d+) characters/)).toEqual([
    kib(MAX_HEADER_BYTES),
    String(MAX_HEADER_COUNT),
    String(MAX_HEADER_NAME_CHARS),
  ]);
  expect(await figuresOn('docs/safety.md', /\(`json_decode` with depth (\d+)\)/)).toEqual([String(MAX_JSON_DEPTH)]);
  expect(await figuresOn('docs/safety.md', /of more than ([\d,]+) values in one answer or ([\d,]+) over a target's answers/)).toEqual([
    grouped(MAX_JSON_VALUES),
    grouped(TARGET_JSON_VALUES),
  ]);
  expect(await figuresOn('docs/safety.md', /then the request goes again, at most (\d+) times/)).toEqual([String(MAX_RETRIES_PER_REQUEST)]);
  for (const path of ['docs/safety.md', 'docs/options.md']) {
    expect(await figuresOn(path, /\b(\d+) s for a 429 that names none\b/)).toEqual([String(DEFAULT_RETRY_AFTER_MS / 1000)]);
  }
});
