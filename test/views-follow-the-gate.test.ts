import type { IncomingMessage } from 'node:http';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CTRFReport } from 'ctrf';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import type { Matrix } from '../src/report/matrix/types.js';
import { validator } from '../src/validators/schemas.js';
import { OUTCOME_WORDS, TONES } from '../src/report/views/vocabulary.js';
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

/** What a matrix run or a merge leaves: its exit code, what it printed and the folder of its matrix files. */
interface MatrixOutcome {
  code: number;
  stdout: string;
  outDir: string;
}

const TOKEN_ENV = 'VIEWS_GATE_TOKEN';

/** A targets file of one reference server per target, with the faults named, all taking TOKEN. */
async function targetsFile(faults: Record<string, string[]>): Promise<string> {
  const targets = await Promise.all(
    Object.entries(faults).map(async ([name, variants]) => ({ name, baseUrl: await referenceServer(variants), tokenEnv: TOKEN_ENV })),
  );
  const file = join(await tempFolder('views-gate-targets-'), 'targets.json');
  await writeFile(file, JSON.stringify({ targets }));
  return file;
}

async function matrixRun(file: string, args: string[]): Promise<MatrixOutcome> {
  const run = await inProcess.run(['--targets', file, ...args], { [TOKEN_ENV]: TOKEN });
  cleanUpAfterAll(run.cleanup);
  return run;
}

/** The same targets as two shards, merged. */
async function mergedRun(file: string, args: string[]): Promise<MatrixOutcome> {
  const shards = await Promise.all(['1/2', '2/2'].map((shard) => matrixRun(file, [...args, '--shard', shard])));
  const outDir = join(await tempFolder('views-gate-merged-'), 'merged');
  const merge = await inProcess.exec(['merge', ...shards.map((shard) => join(shard.outDir, 'matrix.json')), '--out', outDir]);
  return { ...merge, outDir };
}

/** A target whose only miss is a SHOULD (a byte order mark) beside a conformant one. */
const WARNED_FLEET = { conformant: [], 'byte-order-mark': ['utf8-bom'] };

/** The baseline `baseline --from` writes from a matrix's failures, and its path. */
async function baselineOf(matrix: MatrixOutcome): Promise<{ path: string; knownFailures: { requirement: string; target?: string }[] }> {
  const path = join(await tempFolder('views-gate-baseline-'), 'baseline.json');
  const written = await inProcess.exec([
    'baseline',
    '--from',
    join(matrix.outDir, 'matrix.json'),
    ...['--owner', 'ops', '--reason', 'ticket OPS-12', '--expires', '2999-12-31', '--out', path],
  ]);
  expect(written.code, written.stderr).toBe(0);
  return { path, ...(JSON.parse(await readFile(path, 'utf8')) as { knownFailures: { requirement: string; target?: string }[] }) };
}

/** A matrix of a target whose MUST is broken, then the same with the baseline `baseline --from` writes from it. */
async function waivedMatrix(): Promise<MatrixOutcome & { waived: number }> {
  const file = await targetsFile({ conformant: [], 'colour-missing': ['colour-missing'] });
  const baseline = await baselineOf(await matrixRun(file, []));
  return { ...(await matrixRun(file, ['--baseline', baseline.path])), waived: baseline.knownFailures.length };
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

/** A matrix whose only miss is a SHOULD, with and without --strict, run whole and as merged shards. */
function matrixCases(): [string, () => Promise<MatrixOutcome>][] {
  const file = targetsFile(WARNED_FLEET);
  return [
    ['matrix', async () => matrixRun(await file, [])],
    ['matrix --strict', async () => matrixRun(await file, ['--strict'])],
    ['merged shards', async () => mergedRun(await file, [])],
    ['merged shards --strict', async () => mergedRun(await file, ['--strict'])],
  ];
}

let outcome: (name: string) => Promise<GatedRun>;
let matrixOutcome: (name: string) => Promise<MatrixOutcome>;
let waived: GatedRun & { waived: string[] };
let waivedInMatrix: MatrixOutcome & { waived: number };
beforeAll(async () => {
  const started = startAll(cases());
  const matrices = startAll(matrixCases());
  outcome = (name) => started.outcome(name);
  matrixOutcome = (name) => matrices.outcome(name);
  [waived, waivedInMatrix] = await Promise.all([waivedRun(), waivedMatrix()]);
  await Promise.all([started.settled, matrices.settled]);
}, ALL_CASES_TIMEOUT_MS);

/** The number a counts line gives as failed. */
const failedIn = (line: string | undefined): number => Number(/\b(\d+) failed\b/.exec(line ?? '')?.[1] ?? Number.NaN);

/** The badge of a run that fails: the failed outcome's colour. */
const RED = TONES[OUTCOME_WORDS.failed.tone].ink;

/**
 * What each view shows failing (a failure or an error: what CI tools show red), read from its file: how many
 * requirements where the view counts them, whether it shows a failure at all where it does not.
 */
async function failuresShown({ run, stepSummary }: GatedRun): Promise<Record<string, number | boolean>> {
  const read = (name: string): Promise<string> => readFile(join(run.outDir, name), 'utf8');
  const count = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].length;

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
  const verified = await inProcess.exec(['verify', join(run.outDir, 'report.json')]);
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
    'verify: the counts of the report': failedIn(verified.stdout.split('\n').find((line) => line.startsWith('  Run: '))),
  };
}

/** What each matrix file, and the terminal, shows failing: over all targets, and summed over each target's counts. */
async function matrixFailuresShown({ stdout, outDir }: MatrixOutcome): Promise<Record<string, number>> {
  const read = (name: string): Promise<string> => readFile(join(outDir, name), 'utf8');
  const count = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].length;
  const sum = (numbers: number[]): number => numbers.reduce((total, number) => total + number, 0);
  const matrix = JSON.parse(await read('matrix.json')) as Matrix;
  const markdown = await read('matrix.md');
  // The table of targets: name, verdict, exit code, counts, what did not pass, reports.
  const targetRows = markdown
    .split('\n')
    .filter((line) => /^\| [^|]+ \| (conformant|not-conformant|inconclusive)\b/.test(line))
    .map((line) => line.split(' | '));
  const html = await read('matrix.html');
  const lines = stdout.trim().split('\n');
  // A matrix run prints a line as each target finishes; a merge has none to print.
  const progress = lines.filter((line) => /^\[\s*\d+\/\d+\] /.test(line));
  return {
    'matrix.json: totals': matrix.totals.outcomes.failed,
    'matrix.json: each target': sum(matrix.targets.map((target) => target.outcomes.failed)),
    'matrix.md: totals': failedIn(markdown.split('\n').find((line) => line.startsWith('- Totals over all targets: '))),
    'matrix.md: counts of each target': sum(targetRows.map((cells) => failedIn(cells[3]))),
    'matrix.md: requirements named as failed': sum(targetRows.map((cells) => count(cells[4] ?? '', /\(fail\)/g))),
    'matrix.md: FAIL in the grid': count(markdown, /\| FAIL(?= \|)/g),
    'matrix.html: totals': failedIn(/<p class="plain">([^<]*), over all targets/.exec(html)?.[1]),
    'matrix.html: failed cells': count(html, new RegExp(`<td [^>]*>${OUTCOME_WORDS.failed.symbol}</td>`, 'g')),
    'terminal: the last line': failedIn(lines.at(-1)),
    ...(progress.length > 0 ? { 'terminal: each target': sum(progress.map(failedIn)) } : {}),
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

describe('a matrix of a target whose only miss is a SHOULD: no failure in any matrix file, and exit 0; with --strict a failure in each, and exit 1', () => {
  test.each(['matrix', 'merged shards'])('%s', async (name) => {
    const plain = await matrixOutcome(name);
    expect(plain.code, plain.stdout).toBe(0);
    const matrix = JSON.parse(await readFile(join(plain.outDir, 'matrix.json'), 'utf8')) as Matrix;
    expect(validator('matrix')(matrix)).toBe(true);
    expect(matrix.exitCode).toBe(0);
    expect(matrix.totals.outcomes.warned).toBe(1);
    expect(await readFile(join(plain.outDir, 'matrix.md'), 'utf8')).toMatch(/\| ENV-NO-BOM \(warning\) /);
    const shown = await matrixFailuresShown(plain);
    expect(shown).toEqual(every(shown, 0));

    const strict = await matrixOutcome(`${name} --strict`);
    expect(strict.code, strict.stdout).toBe(1);
    const strictMatrix = JSON.parse(await readFile(join(strict.outDir, 'matrix.json'), 'utf8')) as Matrix;
    expect(validator('matrix')(strictMatrix)).toBe(true);
    expect(strictMatrix.exitCode).toBe(1);
    const shownStrict = await matrixFailuresShown(strict);
    expect(shownStrict).toEqual(every(shownStrict, 1));
  });

  test('a baseline written from the --strict matrix holds the SHOULD it failed', async () => {
    const { knownFailures } = await baselineOf(await matrixOutcome('matrix --strict'));
    expect(knownFailures.map(({ requirement, target }) => ({ requirement, target }))).toEqual([
      { requirement: 'ENV-NO-BOM', target: 'byte-order-mark' },
    ]);
  });
});

test('a matrix whose failure the baseline waives shows no failure in any matrix file, and exits 0', async () => {
  expect(waivedInMatrix.waived).toBeGreaterThan(0);
  expect(waivedInMatrix.code, waivedInMatrix.stdout).toBe(0);
  const matrix = JSON.parse(await readFile(join(waivedInMatrix.outDir, 'matrix.json'), 'utf8')) as Matrix;
  expect(validator('matrix')(matrix)).toBe(true);
  expect(matrix.totals.outcomes.waived).toBe(waivedInMatrix.waived);
  expect(matrix.summary).toBe('2 target(s): 1 conformant, 1 not conformant only in failures the baseline waives (colour-missing).');
  const shown = await matrixFailuresShown(waivedInMatrix);
  expect(shown).toEqual(every(shown, 0));
});
