import type { IncomingMessage } from 'node:http';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CTRFReport } from 'ctrf';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { rewritingFront, type Rewrite } from './helpers/rewriting-front.js';
import { lastLine, type CliRun } from './helpers/run-cli.js';
import { schemaProblems } from './helpers/schema-problems.js';

const TOKEN = 'views-gate-token-4e81c2';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources({ reports: REPORT_KINDS });

/** A reference server behind a front that rewrites some of its answers, as a proxy or a patched application would. */
async function behindFront(rewrite: Rewrite): Promise<string> {
  const reference = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(() => reference.close());
  const front = await rewritingFront(reference.url, rewrite);
  cleanUpAfterAll(() => front.close());
  return front.url;
}

async function referenceServer(variants: string[]): Promise<string> {
  const server = await startReferenceServer({ token: TOKEN, variants });
  cleanUpAfterAll(() => server.close());
  return server.url;
}

/** The official client's own request: Guzzle's User-Agent, where the suite's requests carry the suite's. */
const fromOfficialClient = (request: IncomingMessage): boolean => request.headers['user-agent'] === 'GuzzleHttp/7';

/** Targets whose only miss is one the gate lets through without --strict. */
const WARNED: Record<string, { url: () => Promise<string>; args: string[]; missed: string }> = {
  // A UTF-8 byte order mark before the JSON, as some PHP files add: a SHOULD of the document.
  'a byte order mark (SHOULD)': { url: () => referenceServer(['utf8-bom']), args: [], missed: 'ENV-NO-BOM' },
  // An installation that renamed its first status, which the document allows it to: a SHOULD.
  'the first status renamed (SHOULD)': {
    url: () => behindFront(({ body }) => ({ body: body.replaceAll('"name":"Open"', '"name":"Nouveau ticket"') })),
    args: [],
    missed: 'STATUS-OPEN-FIRST',
  },
  // The official client's request answered HTTP 201, which Guzzle's caller refuses: a CLIENT check of the profile.
  'HTTP 201 to the official client (CLIENT)': {
    url: () => behindFront((answer, request) => (fromOfficialClient(request) ? { status: 201 } : {})),
    args: ['--profile', 'official-client'],
    missed: 'CLIENT-PHP-HTTP-200',
  },
  // The official client's request answered with an error envelope on HTTP 200: another CLIENT check.
  'an error envelope to the official client (CLIENT)': {
    url: () =>
      behindFront(({ body }, request) =>
        fromOfficialClient(request) ? { body: JSON.stringify({ ...(JSON.parse(body) as object), status: 'error' }) } : {},
      ),
    args: ['--profile', 'official-client'],
    missed: 'CLIENT-PHP-STATUS-NOT-ERROR',
  },
};

interface GatedRun {
  run: CliRun;
  /** The file GitHub Actions would show as the job's summary. */
  stepSummary: string;
}

async function gatedRun(url: string, args: string[]): Promise<GatedRun> {
  const folder = await tempFolder('views-gate-');
  const stepSummary = join(folder, 'step-summary.md');
  await writeFile(stepSummary, '');
  const run = await inProcess.run(['--base-url', url, '--token', TOKEN, ...args], { GITHUB_STEP_SUMMARY: stepSummary });
  cleanUpAfterAll(run.cleanup);
  return { run, stepSummary: await readFile(stepSummary, 'utf8') };
}

/** A MUST broken (the colour left out), then the same run with a baseline that waives what failed. */
async function waivedRun(): Promise<GatedRun & { waived: string[] }> {
  const url = await referenceServer(['colour-missing']);
  const first = await gatedRun(url, []);
  const waived = (first.run.report?.requirements ?? []).filter((result) => result.verdict === 'fail').map((result) => result.id);
  const baseline = join(await tempFolder('views-gate-baseline-'), 'baseline.json');
  const knownFailures = waived.map((requirement) => ({ requirement, reason: 'ticket OPS-12', owner: 'ops', expires: '2999-12-31' }));
  await writeFile(baseline, JSON.stringify({ schemaVersion: 1, knownFailures }));
  return { ...(await gatedRun(url, ['--baseline', baseline])), waived };
}

/** Each target twice, with and without --strict, and a MUST flaky over two runs. */
function cases(): [string, () => Promise<GatedRun>][] {
  return [
    ...Object.entries(WARNED).flatMap(([name, target]): [string, () => Promise<GatedRun>][] => {
      const url = target.url();
      return [
        [name, async () => gatedRun(await url, target.args)],
        [`${name} --strict`, async () => gatedRun(await url, [...target.args, '--strict'])],
      ];
    }),
    // Colour right the first time a request is made and wrong when it is made again.
    ['a flaky MUST', async () => gatedRun(await referenceServer(['colour-breaks-on-repeat']), ['--repeat', '2'])],
  ];
}

let outcome: (name: string) => Promise<GatedRun>;
let waived: GatedRun & { waived: string[] };
beforeAll(async () => {
  const started = startAll(cases());
  outcome = (name) => started.outcome(name);
  waived = await waivedRun();
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

const RED = '#c62828';

/**
 * What each view shows failing (a failure or an error: what CI tools show red), read from its file: how many
 * requirements where the view counts them, whether it shows a failure at all where it does not.
 */
async function failuresShown({ run, stepSummary }: GatedRun): Promise<Record<string, number | boolean>> {
  const read = (name: string): Promise<string> => readFile(join(run.outDir, name), 'utf8');
  const count = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].length;
  const failedIn = (line: string | undefined): number => Number(/\b(\d+) failed\b/.exec(line ?? '')?.[1] ?? Number.NaN);

  const junit = await read('junit.xml');
  const attribute = (name: string): number => Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(junit)?.[1]);
  const ctrf = (JSON.parse(await read('ctrf.json')) as CTRFReport).results;
  const allureDir = join(run.outDir, 'allure-results');
  const allure = await Promise.all(
    (await readdir(allureDir))
      .filter((name) => name.endsWith('-result.json'))
      .map(async (name) => (JSON.parse(await readFile(join(allureDir, name), 'utf8')) as { status: string }).status),
  );
  const markdown = await read('report.md');
  const totalsLine = (text: string): string | undefined => text.split('\n').find((line) => line.startsWith('- Totals: '));
  const html = await read('report.html');
  const badge = await read('badge.svg');
  const stdout = run.stdout.split('\n');
  return {
    'counts line': failedIn(lastLine(run)),
    'terminal: a "Failures" section': stdout.includes('Failures'),
    'junit.xml: failures and errors': attribute('failures') + attribute('errors'),
    'junit.xml: <failure> and <error> elements': count(junit, /<(failure|error)[ >]/g),
    'ctrf.json: summary.failed': ctrf.summary.failed,
    'ctrf.json: tests failed': ctrf.tests.filter((entry) => entry.status === 'failed').length,
    'allure-results: failed or broken': allure.filter((status) => status === 'failed' || status === 'broken').length,
    'report.md: totals': failedIn(totalsLine(markdown)),
    'report.md: a "Failures" section': /\n#{2,3} Failures\n/.test(markdown),
    'GITHUB_STEP_SUMMARY: totals': failedIn(totalsLine(stepSummary)),
    'report.html: totals': failedIn(/<p class="plain">([^<]*), over \d+ requirements/.exec(html)?.[1]),
    'report.html: "Failures" heading': Number(/<h2 id="attention">Failures \((\d+)\)/.exec(html)?.[1] ?? Number.NaN),
    'badge.svg: red': badge.includes(`fill="${RED}"`),
  };
}

/** What every view should show for this many failures. */
const every = (views: Record<string, number | boolean>, failures: number): Record<string, number | boolean> =>
  Object.fromEntries(Object.entries(views).map(([view, shown]) => [view, typeof shown === 'boolean' ? failures > 0 : failures]));

describe('a miss the gate lets through is no failure in any file; with --strict it is one in every file', () => {
  test.each(Object.entries(WARNED))('%s', async (name, { missed }) => {
    const plain = await outcome(name);
    const warned = (plain.run.report?.requirements ?? []).filter((result) => result.verdict === 'warn').map((result) => result.id);
    expect({ code: plain.run.code, warned }, plain.run.stdout).toEqual({ code: 0, warned: [missed] });
    const shown = await failuresShown(plain);
    expect(shown).toEqual(every(shown, 0));
    // The warning is still said, in each file's own way.
    const junit = await readFile(join(plain.run.outDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(new RegExp(`name="${missed} [^"]*">\\s*<skipped message="warning[^"]*" type="warn"`));
    const ctrf = (JSON.parse(await readFile(join(plain.run.outDir, 'ctrf.json'), 'utf8')) as CTRFReport).results.tests;
    expect(ctrf.find((entry) => entry.name.startsWith(`${missed} `))).toMatchObject({ status: 'other', rawStatus: 'warn' });
    expect(lastLine(plain.run)).toMatch(/, 1 warning\b/);
    expect(plain.run.report?.summary).toMatch(
      new RegExp(`^This deployment is conformant.* 1 warning\\(s\\), not failures without --strict: ${missed}\\.$`),
    );
    expect(await schemaProblems(plain.run)).toEqual([]);

    const strict = await outcome(`${name} --strict`);
    expect(strict.run.code, strict.run.stdout).toBe(1);
    const shownStrict = await failuresShown(strict);
    expect(shownStrict).toEqual(every(shownStrict, 1));
    expect(await schemaProblems(strict.run)).toEqual([]);
  });
});

test('a failure the baseline waives is no failure in any file, and the run exits 0', async () => {
  expect(waived.waived.length).toBeGreaterThan(0);
  expect(waived.run.code, waived.run.stdout).toBe(0);
  const shown = await failuresShown(waived);
  expect(shown).toEqual(every(shown, 0));
});

test('a MUST that failed in one of the --repeat runs fails the run, and every file says so', async () => {
  const flaky = await outcome('a flaky MUST');
  expect(flaky.run.code, flaky.run.stdout).toBe(1);
  const ids = (flaky.run.report?.requirements ?? []).filter((result) => result.verdict === 'flaky').map((result) => result.id);
  expect(ids.length).toBeGreaterThan(0);
  const shown = await failuresShown(flaky);
  // A MUST broken in any run fails it; a flaky SHOULD would be a warning.
  const failing = (flaky.run.report?.requirements ?? []).filter(
    (result) => result.verdict === 'fail' || (result.verdict === 'flaky' && result.level === 'MUST'),
  );
  expect(shown).toEqual(every(shown, failing.length));
});
