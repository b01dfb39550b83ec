import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { screenOutput } from '../src/cli/screen-output.js';
import { clientKeySecrets, createSecretScanner } from '../src/secrets/scanner.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { RecordedCheck, ScenarioResult } from '../src/judge/scenario-result.js';
import { buildReport, diagnoseFacts } from '../src/pipeline/pipeline.js';
import type { DiagnosedPass, Report } from '../src/report/model/types.js';
import { MANIFEST } from '../src/files/artifacts.js';
import { writeReports } from '../src/report/write.js';
import { samplePass } from './helpers/sample-report.js';
import { FOREIGN_CREDENTIAL, hostileTargets } from './helpers/hostile-targets.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { runCli, type CliRun } from './helpers/run-cli.js';
import { tokenFormsIn } from './helpers/token-forms.js';
import { removeFolder } from './helpers/safety-net.js';

const TOKEN = 'Sup3r-Secret-Token-93f1c2';

const scanner = createSecretScanner([TOKEN]);
const leaksIn = (text: string): string[] => tokenFormsIn(text, TOKEN);
const { inProcess, cleanUpAfterAll } = fileResources({ reports: REPORT_KINDS });

type Runner = (args: string[]) => Promise<CliRun>;

const ACCEPTS_ANYTHING = ['wrong-token-accepted', 'missing-header-accepted', 'malformed-header-accepted'];
const TOKEN_CASES: [string, string[]][] = [
  ['a conformant target', []],
  ['a target that refuses the token', ['authorization-stripped']],
  ['a target that accepts anything', ACCEPTS_ANYTHING],
];

/** One run against a server that is closed once the run has ended. */
async function runThenClose(target: { url: string; close(): Promise<void> }, run: Runner): Promise<CliRun> {
  try {
    const result = await run(['--base-url', target.url, '--token', TOKEN]);
    cleanUpAfterAll(result.cleanup);
    return result;
  } finally {
    await target.close();
  }
}

async function runAgainst(faults: string[], run: Runner): Promise<CliRun> {
  return runThenClose(await startReferenceServer({ token: TOKEN, variants: faults }), run);
}

async function runAgainstEchoes(run: Runner): Promise<CliRun> {
  return runThenClose(await hostileTargets['echoes-credentials'](TOKEN), run);
}

async function expectNoTokenAnywhere(run: CliRun): Promise<void> {
  const files = await run.files();
  expect(files.map((file) => file.path).some((path) => path.endsWith('report.json'))).toBe(true);
  expect(files.some((file) => file.path.includes('allure-results'))).toBe(true);
  expect(leaksIn(run.stdout + run.stderr)).toEqual([]);
  for (const file of files)
    expect({ path: file.path, leaks: leaksIn(file.content.toString('utf8')) }).toEqual({ path: file.path, leaks: [] });
  expect(files.find((file) => file.path.endsWith('report.json'))?.content.toString()).toContain('<API_TOKEN>');
}

/** Every target is recorded once, all at once, and the recordings judged together by one spec runner. */
const ECHOES = 'a target that echoes credentials back';
let runOf: (name: string) => Promise<CliRun>;
beforeAll(async () => {
  const inProcessRun: Runner = (args) => inProcess.run(args);
  const started = startAll([
    ...TOKEN_CASES.map(([name, faults]) => [name, () => runAgainst(faults, inProcessRun)] as const),
    [ECHOES, () => runAgainstEchoes(inProcessRun)] as const,
  ]);
  runOf = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

test.each(TOKEN_CASES)('the token appears in no output and no file, raw or base64, against %s', async (name) =>
  expectNoTokenAnywhere(await runOf(name)),
);

// The real CLI: its output is everything its process writes, not only the lines the command hands to its io.
test('the token appears in nothing the real CLI’s process writes, against a target that accepts anything', async () => {
  await expectNoTokenAnywhere(await runAgainst(ACCEPTS_ANYTHING, (args) => runCli(args)));
});

test('secret forms include the base64 of any Basic credential built from the token', () => {
  for (const password of ['x', '', 'a:b:c', 'p'.repeat(256)]) {
    const header = Buffer.from(`${TOKEN}:${password}`).toString('base64');
    expect(scanner.find(`Authorization: Basic ${header}`)).toBeDefined();
  }
  expect(scanner.find('nothing to see')).toBeUndefined();
});

test('a secret cut by line breaks, raw or escaped, is the secret: found and redacted; a break joins nothing else', () => {
  const long = 'f3a9c1e7b5d20486a61c8f053e2a7d9b1c0e4f7a2b9d3c6e';
  const wrapping = createSecretScanner([long]);
  const base64 = Buffer.from(`${long}:x`).toString('base64');
  const cut = (at: number, end: string): string => `${base64.slice(0, at)}${end}${base64.slice(at)}`;
  for (const end of ['\r\n', '\n', '\\r\\n', '\\n', '%0D%0A', '&#10;'])
    for (const at of [5, 40, 64]) {
      const text = `debug: ${cut(at, end)} end`;
      expect(wrapping.find(text), JSON.stringify([end, at])).toBe('the API token');
      const redacted = wrapping.redact(text);
      expect(redacted).toMatch(/^debug: .*<redacted>.* end$/s);
      expect(redacted.replace(/\\r|\\n|\r|\n/g, '')).not.toContain(base64.slice(8, 40));
    }
  expect(wrapping.find(`${long.slice(0, 20)}\n${long.slice(20)}`)).toBe('the API token');
  // A break between a piece of the token and other text makes nothing of them.
  expect(wrapping.find(`${long.slice(0, 20)}\nlisting of ticket types\n${long.slice(21)}`)).toBeUndefined();
});

test('any Authorization value with a credential is a leak; placeholders and the malformed values the suite sends are not', () => {
  const foreign = Buffer.from('someone:else').toString('base64');
  for (const text of [
    `Authorization: Basic ${foreign}`,
    `{"authorization": "Bearer ${FOREIGN_CREDENTIAL}"}`,
    `proxy-authorization: Basic ${foreign}`,
  ])
    expect({ text, leak: scanner.find(text) }).toEqual({ text, leak: 'an Authorization value' });
  for (const text of [
    'Authorization: Basic <redacted>',
    `-H 'Authorization: Bearer <API_TOKEN>'`,
    `-H 'Authorization: Basic %%%not-base64%%%'`,
    `-H "Authorization: Basic $(printf '%s' '<API_TOKEN>' | base64)"`,
    'Authorization: Basic &lt;redacted&gt;',
    'www-authenticate: Basic realm="API"',
  ])
    expect({ text, leak: scanner.find(text) }).toEqual({ text, leak: undefined });
  expect(scanner.find(`sent ${Buffer.from(`${TOKEN}:x`).toString('base64')}`)).toBe('the API token');
});

test('credentials a target echoes back are redacted, so the report is still written', async () => {
  const run = await runOf(ECHOES);
  expect(run.code).toBe(0);
  const report = (await run.files()).find((file) => file.path.endsWith('report.json'))?.content.toString() ?? '';
  expect(report).toContain('"x-upstream-authorization":"Bearer <redacted>"');
  expect(report).toContain('Authorization: Bearer <redacted>');
  expect(leaksIn(report)).toEqual([]);
  expect(report).not.toContain(FOREIGN_CREDENTIAL);
});

/** A pass whose one check carries whatever a buggy scenario copied into it. */
function passWith(check: Omit<RecordedCheck, 'requirement' | 'scenario'>, exchanges: ScenarioResult['exchanges'] = {}): DiagnosedPass {
  const now = new Date();
  return diagnoseFacts(
    {
      suite: { name: 'ticketing-conformance', version: 'test' },
      target: { baseUrl: 'http://127.0.0.1:9/', embeddedReference: false },
      options: { statusId: 1, strict: false, timeoutMs: 1000, maxRequests: 40, repeat: 1 },
      startedAt: now,
      finishedAt: now,
      complete: true,
      scenarios: [
        {
          id: 'leaky',
          title: 'a scenario that copied a secret into its record',
          requirements: ['AUTH-TOKEN-ACCEPTED'],
          requestsSent: 1,
          checks: [{ requirement: 'AUTH-TOKEN-ACCEPTED', scenario: 'leaky', ...check }],
          exchanges,
        },
      ],
      errors: [],
    },
    { statusId: [1] },
  );
}

/** The report of the pass as a run builds it with the scanner of its token, and the files written from it. */
async function written(pass: DiagnosedPass, secrets = scanner): Promise<{ files: string[]; texts: string[]; finished: Report }> {
  const outDir = await mkdtemp(join(tmpdir(), 'conformance-leak-'));
  try {
    const finished = buildReport({ passes: [pass], scanner: secrets });
    await writeReports(finished, outDir, secrets);
    const files = await readdir(outDir);
    const texts = await Promise.all(files.filter((name) => name.includes('.')).map((name) => readFile(join(outDir, name), 'utf8')));
    return { files, texts, finished };
  } finally {
    await removeFolder(outDir);
  }
}

test('a report whose model would carry the token is written with it redacted, said as a fault of the suite, and gives no verdict', async () => {
  const basic = Buffer.from(`${TOKEN}:x`).toString('base64');
  const pass = passWith({ verdict: 'fail', description: `sent ${basic}` });
  expect(buildReport({ passes: [pass], scanner: createSecretScanner([]) }).exitCode).toBe(1);
  const { files, texts, finished } = await written(pass);
  for (const name of ['report.json', 'report.md', 'report.html', 'junit.xml', 'ctrf.json']) expect(files).toContain(name);
  expect(texts.filter((text) => text.includes(basic) || text.includes(TOKEN))).toEqual([]);
  expect(texts.find((text) => text.startsWith('{') && text.includes('"schemaVersion"'))).toContain('sent <redacted>');
  expect(finished.errors.map((error) => error.code)).toEqual(['HARNESS_SECRET_LEAK']);
  expect(finished.errors[0]?.message).toMatch(/^the report would have contained the API token/);
  expect(finished.exitCode).toBe(2);
  // The pass the report was built from is not changed: the build redacts a copy.
  expect(JSON.stringify(pass)).toContain(basic);
});

test("a report no file holds (an exporter probe's) is screened alike: the token redacted, said, and no verdict", () => {
  const basic = Buffer.from(`${TOKEN}:x`).toString('base64');
  const unwritten = buildReport({ passes: [passWith({ verdict: 'fail', description: `sent ${basic}` })], scanner, written: false });
  expect(JSON.stringify(unwritten)).not.toContain(basic);
  expect(unwritten.errors.map((error) => error.code)).toEqual(['HARNESS_SECRET_LEAK']);
  expect(unwritten.exitCode).toBe(2);
  expect(unwritten.integrity?.content).toBeUndefined();
});

test('an Authorization value in the model is redacted too', async () => {
  const pass = passWith(
    { verdict: 'pass', description: 'sent it', exchange: 'valid /?' },
    {
      'valid /?': {
        request: {
          method: 'GET',
          url: 'http://127.0.0.1:9/',
          credentials: 'a foreign credential',
          headers: { authorization: `Bearer ${FOREIGN_CREDENTIAL}` },
        },
        response: { status: 200, headers: {}, body: '', bodyTruncated: false },
        repro: "curl -sS 'http://127.0.0.1:9/'",
      },
    },
  );
  const { files, texts, finished } = await written(pass);
  expect(files).toContain('report.json');
  expect(texts.filter((text) => text.includes(FOREIGN_CREDENTIAL))).toEqual([]);
  expect(finished.errors[0]?.message).toMatch(/^the report would have contained an Authorization value/);
  expect(finished.exitCode).toBe(2);
});

test('terminal output that would show a secret is replaced by one line naming the leak, not the secret', () => {
  const leaking = `Request: GET /  Authorization: Basic ${Buffer.from(`${TOKEN}:x`).toString('base64')}`;
  const screened = screenOutput(leaking, (text) => scanner.find(text));
  expect(screened).toEqual({
    leaked: true,
    text: 'HARNESS_SECRET_LEAK: the terminal summary would have contained the API token, so it was not written. This is a bug in the suite; report it without the file',
  });
  expect(screenOutput('Verdict: fine', (text) => scanner.find(text))).toEqual({ leaked: false, text: 'Verdict: fine' });
});

test('a token with markup characters is also found in the model, and no view carries it in any escaped form', async () => {
  const token = `Tok&en<"'|93f1`;
  const outDir = await mkdtemp(join(tmpdir(), 'conformance-leak-'));
  try {
    const secrets = createSecretScanner([token]);
    const finished = buildReport({ passes: [samplePass(`echoed ${token} back`)], scanner: secrets });
    await writeReports(finished, outDir, secrets);
    expect(finished.errors.map((error) => error.code)).toContain('HARNESS_SECRET_LEAK');
    const names = (await readdir(outDir)).filter((name) => name.includes('.') && name !== MANIFEST);
    const escaped = [token, 'Tok&amp;en&lt;&quot;', 'Tok\\u0026en', 'Tok&en<\\"'];
    for (const name of names) {
      const text = await readFile(join(outDir, name), 'utf8');
      expect(
        escaped.filter((form) => text.includes(form)),
        name,
      ).toEqual([]);
    }
    expect(names).toContain('report.html');
  } finally {
    await removeFolder(outDir);
  }
});

test('a client key and its passphrase are found and redacted in every form a target could echo them, named as the client key', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const passphrase = 'unlock-4b7e19d2';
  const keyScanner = createSecretScanner([TOKEN], [], clientKeySecrets({ key: { pem }, keyPassphrase: passphrase }));
  const body = pem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
  const echoes = [
    pem,
    JSON.stringify({ debug: pem }),
    `x-client-key: ${body.join('')}`,
    `one line of it: ${body[3] ?? ''}`,
    Buffer.from(pem).toString('base64'),
    `passphrase=${passphrase}`,
  ];
  for (const echo of echoes) {
    expect(keyScanner.find(echo), echo.slice(0, 40)).toBe('the client key');
    const redacted = keyScanner.redact(echo);
    expect(body.filter((line) => redacted.includes(line))).toEqual([]);
    expect(redacted).not.toContain(passphrase);
  }
});
