import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { serveHttp } from './helpers/loopback-server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'artifacts-token-41d7aa';
const EARLIER_SUMMARY = '# An earlier step\n\nIts own summary.\n\n';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources({ reports: REPORT_KINDS });

let server: RunningReferenceServer | undefined;
let run: CliRun | undefined;
let workDir = '';
let stepSummary = '';

beforeAll(async () => {
  workDir = await tempFolder('conformance-artifacts-');
  stepSummary = join(workDir, 'step-summary.md');
  await writeFile(stepSummary, EARLIER_SUMMARY);
  // A status without translations leaves the translation requirements unjudged: failures, skips and passes in one run.
  server = await startReferenceServer({ token: TOKEN, variants: ['selfservice-missing'] });
  cleanUpAfterAll(server.close);
  run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--status-id', '3'], { GITHUB_STEP_SUMMARY: stepSummary });
  cleanUpAfterAll(run.cleanup);
});

function finished(): { run: CliRun; report: Report } {
  if (!run?.report) throw new Error('the run wrote no report.json');
  return { run, report: run.report };
}

const output = (name: string): Promise<string> => readFile(join(finished().run.outDir, name), 'utf8');

const unescapeXml = (text: string): string =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');

function validateJunit(xml: string): ReturnType<typeof validateXML> {
  return readFile(join(repoRoot, 'schemas', 'junit.xsd'), 'utf8').then((xsd) =>
    validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: xsd }] }),
  );
}

test('the run under test fails one requirement and skips others', () => {
  const { run: finishedRun, report } = finished();
  expect(finishedRun.code).toBe(1);
  expect(report.totals.fail).toBeGreaterThan(0);
  expect(report.totals.skip).toBeGreaterThan(0);
  expect(report.totals.pass).toBeGreaterThan(0);
});

test('junit.xml is valid against the JUnit schema', async () => {
  const result = await validateJunit(await output('junit.xml'));
  expect(result.errors.map((error) => error.rawMessage)).toEqual([]);
  expect(result.valid).toBe(true);
});

test.each([
  ['a testcase with two outcomes', (xml: string) => xml.replace('<skipped ', '<failure message="x"/><skipped ')],
  ['a testcase without a classname', (xml: string) => xml.replace(/<testcase classname="[^"]*"/, '<testcase')],
  ['a negative count', (xml: string) => xml.replace(/tests="\d+"/, 'tests="-1"')],
  ['an outcome outside a testcase', (xml: string) => xml.replace('  </testsuite>', '    <skipped/>\n  </testsuite>')],
])('the JUnit schema rejects %s', async (_name, spoil) => {
  const xml = await output('junit.xml');
  const spoiled = spoil(xml);
  expect(spoiled).not.toBe(xml);
  expect((await validateJunit(spoiled)).valid).toBe(false);
});

test('one testcase per requirement: a skip is <skipped>, a failure <failure> with its message, a pass neither', async () => {
  const { report } = finished();
  const xml = await output('junit.xml');
  const cases = new Map(
    [...xml.matchAll(/<testcase classname="[^"]*" name="([A-Z0-9-]+) [^"]*">([\s\S]*?)<\/testcase>/g)].map((match) => [
      match[1] ?? '',
      match[2] ?? '',
    ]),
  );
  expect([...cases.keys()]).toEqual(report.requirements.map((result) => result.id));
  for (const result of report.requirements) {
    const body = cases.get(result.id) ?? '';
    const outcomes = [...body.matchAll(/<(skipped|failure|error)\b/g)].map((match) => match[1]);
    // An INFO observation is neither a pass nor a failure: JUnit, with no fourth outcome, skips it.
    const expected: Record<string, string[]> = { skip: ['skipped'], info: ['skipped'], fail: ['failure'], warn: ['failure'], pass: [] };
    expect({ id: result.id, outcomes }).toEqual({ id: result.id, outcomes: expected[result.verdict] ?? ['error'] });
    if (result.verdict === 'skip') expect(unescapeXml(body)).toContain(`message="${result.checks[0]?.description ?? ''}"`);
    if (result.verdict === 'fail') {
      const check = result.checks.find((entry) => entry.verdict === 'fail');
      const message = unescapeXml(/<failure message="([^"]*)"/.exec(body)?.[1] ?? '');
      expect(message).toContain(`${result.id} (${result.level}): ${check?.description ?? '?'}`);
      expect(message).toContain(`expected ${check?.expected ?? '?'}`);
    }
  }
});

test('with GITHUB_STEP_SUMMARY set, the Markdown summary is appended after what was there', async () => {
  const summary = await readFile(stepSummary, 'utf8');
  expect(summary).toBe(`${EARLIER_SUMMARY}${await output('report.md')}\n`);
  expect(summary).toContain(finished().report.summary);
});

interface AllureResult {
  status: string;
  labels: { name: string; value: string }[];
  attachments: { name: string; source: string }[];
}

test('each Allure result carries its requests and responses as redacted attachments', async () => {
  const dir = join(finished().run.outDir, 'allure-results');
  const results = await Promise.all(
    (await readdir(dir))
      .filter((name) => name.endsWith('-result.json'))
      .map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as AllureResult),
  );
  const selfservice = results.find((result) =>
    result.labels.some((label) => label.name === 'story' && label.value === 'SELFSERVICE-ACCEPTED'),
  );
  expect(selfservice?.status).toBe('failed');
  const attachments = selfservice?.attachments ?? [];
  expect(attachments.map((attachment) => attachment.name)).toEqual(['1: GET /api/selfservice/type → HTTP 404']);
  const exchange = await readFile(join(dir, attachments[0]?.source ?? 'missing'), 'utf8');
  expect(exchange).toContain(`GET ${server?.url ?? ''}/api/selfservice/type`);
  expect(exchange).toContain('authorization: Basic <redacted>');
  expect(exchange).toContain("curl -sS -u '<API_TOKEN>:x'");
  expect(exchange).toMatch(/\n\nHTTP 404\n/);
});

test('a body with characters XML 1.0 cannot carry (U+FFFE, U+FFFF, U+0000) still gives a valid junit.xml', async () => {
  // Raw in the bytes (U+FFFE, U+FFFF, NUL, a carriage return); lone surrogates, which UTF-8 cannot carry, JSON-escaped.
  const message = '\uFFFE\uFFFF\u0000\r<&>';
  const body = `{"status":"error","message":"${message}\\ud800 \\udc00","data":{"id":"\\udbff"}}`;
  const target = await serveHttp((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(Buffer.from(body, 'utf8'));
  });
  const hostile = await inProcess.run(['--base-url', target.url, '--token', TOKEN]).finally(target.close);
  try {
    expect(hostile.code).toBe(1);
    const xml = await readFile(join(hostile.outDir, 'junit.xml'), 'utf8');
    const result = await validateJunit(xml);
    expect(result.errors.map((error) => error.rawMessage)).toEqual([]);
    expect(result.valid).toBe(true);
    // Each is shown as its code, where a reader of the failure sees it.
    for (const code of ['\\u{fffe}', '\\u{ffff}', '\\u{0000}', '\\r']) expect(xml).toContain(code);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/);
  } finally {
    await hostile.cleanup();
  }
});
