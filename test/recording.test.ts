import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatSchemaErrors, validator } from '../src/validators/schemas.js';
import { harValidator } from './helpers/schema-problems.js';
import { CREDENTIAL_VARIANTS } from '../src/exchange/credentials.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { expectedKills } from '../src/reference-server/kills.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { writeRun } from '../src/pipeline/pipeline.js';
import { apiDocumentHash } from '../src/requirements/document.js';
import { hostileTargets } from './helpers/hostile-targets.js';
import { recordingOfRun, type RecordingFile, type RecordingRun } from '../src/record/recording-file.js';
import { REPORTED_BODY_CHARS } from '../src/exchange/exchange.js';
import { fileResources } from './helpers/file-resources.js';
import { failedRequirements, lastLine, repoRoot, type CliRun } from './helpers/run-cli.js';
import { samplePass, sampleReport } from './helpers/sample-report.js';
import { answeredWith, recordedAnswer } from './helpers/answers.js';

const TOKEN = 'recording-token-3b9e27';
const FIXTURE_RECORDINGS = join(repoRoot, 'test', 'fixtures', 'recordings');

const { inProcess, cleanUpAfterAll, tempFolder } = fileResources({ reports: ['json', 'md', 'junit', 'recording'] });

/** A live run against the reference server with these faults switched on; its server stays up for the judge. */
async function liveRun(variants: string[]): Promise<CliRun> {
  const server = await startReferenceServer({ token: TOKEN, variants });
  cleanUpAfterAll(server.close);
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
  cleanUpAfterAll(run.cleanup);
  return run;
}

async function judge(args: string[]): Promise<CliRun> {
  const run = await inProcess.run(['judge', ...args]);
  cleanUpAfterAll(run.cleanup);
  return run;
}

const recordingOf = (run: CliRun): RecordingFile => JSON.parse(readFileSync(join(run.outDir, 'recording.json'), 'utf8')) as RecordingFile;

/** Every form of the token a file could carry: raw, URL-escaped, base64 alone and inside each Basic credential sent. */
function tokenForms(): string[] {
  const basics = ['x', '', 'z', 'a:b:c', 'p'.repeat(256)].map((password) => Buffer.from(`${TOKEN}:${password}`).toString('base64'));
  return [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('hex'), Buffer.from(TOKEN).toString('base64'), ...basics];
}

describe('a run writes its recording beside the reports', () => {
  let run: CliRun;
  let recording: RecordingFile;
  let report: Report;

  test('recording.json matches schemas/recording.schema.json and names suite, catalog, API document and target', async () => {
    run = await liveRun([]);
    expect(run.code, run.stderr).toBe(0);
    recording = recordingOf(run);
    report = run.report as Report;
    const validate = validator('recording');
    expect(validate(recording), formatSchemaErrors(validate.errors)).toBe(true);
    expect(recording.suite).toEqual(report.suite);
    expect(recording.integrity).toEqual({ catalog: report.integrity?.catalog, apiDocument: apiDocumentHash });
    expect(recording.target.baseUrl).toBe(report.target.baseUrl);
    expect(recording.target.fingerprint).toEqual(report.target.fingerprint);
    expect(recording.options).toEqual(report.options);
  });

  test('each request once, in words, with its answer and timings; as many as the report counts', () => {
    const [only] = recording.runs;
    const keys = only?.exchanges.map((entry) => entry.key) ?? [];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(report.requests.sent);
    for (const entry of only?.exchanges ?? []) {
      if (!('response' in entry)) throw new Error(`${entry.key} got no answer from the reference server`);
      expect(entry.request.credentialsDescription.length).toBeGreaterThan(0);
      expect(entry.request.headers.authorization ?? 'Basic <redacted>').toMatch(/<redacted>$/);
      expect(Date.parse(entry.response.startedAt ?? '')).not.toBeNaN();
      expect(entry.response.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  test('recording.har is HAR 1.2 with the same exchanges', async () => {
    const har = JSON.parse(await readFile(join(run.outDir, 'recording.har'), 'utf8')) as {
      log: { version: string; entries: { request: { url: string }; response: { status: number; content: { text: string } } }[] };
    };
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.version).toBe('1.2');
    const exchanges = (recording.runs[0]?.exchanges ?? []).flatMap((entry) => ('response' in entry ? [entry] : []));
    expect(har.log.entries.map((entry) => [entry.request.url, entry.response.status, entry.response.content.text])).toEqual(
      exchanges.map((entry) => [entry.request.url, entry.response.status, entry.response.bodyText]),
    );
  });

  test('the HAR check is not vacuous: an entry without a response is refused', () => {
    const validate = harValidator();
    expect(validate({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ startedDateTime: 'x' }] } })).toBe(false);
  });

  test('neither file holds the token in any form', async () => {
    for (const name of ['recording.json', 'recording.har']) {
      const text = await readFile(join(run.outDir, name), 'utf8');
      expect({ name, found: tokenForms().filter((form) => text.includes(form)) }).toEqual({ name, found: [] });
      expect({ name, found: createSecretScanner([TOKEN]).find(text) }).toEqual({ name, found: undefined });
    }
  });
});

test('the record stage refuses a recording that would carry the token, and the report it is written with says so', async () => {
  const out = await tempFolder('recording-leak-');
  const basic = Buffer.from(`${TOKEN}:x`).toString('base64');
  const key = 'valid /api/ticket/status/1?';
  // A header echoing the credential as the target sent it back: only the screen can catch it, nothing parses headers.
  const echoed = answeredWith(recordedAnswer(key), { headers: { 'content-type': 'application/json', 'x-echo': `Basic ${basic}` } });
  const recording = { traffic: { sent: 1, rateLimited: 0, waitedMs: 0 }, tlsCertificates: [], answers: { [key]: { exchange: echoed } } };
  const { report: finished, writtenFiles } = await writeRun(
    [samplePass()],
    [{ startedAt: new Date(), recording }],
    out,
    createSecretScanner([TOKEN]),
    { reports: ['json', 'recording'] },
  );
  expect(writtenFiles.some((path) => path.endsWith('recording.json') || path.endsWith('recording.har'))).toBe(false);
  expect(writtenFiles.some((path) => path.endsWith('report.json'))).toBe(true);
  expect(finished.errors.map((error) => [error.code, error.message.includes('recording.json')])).toContainEqual([
    'HARNESS_SECRET_LEAK',
    true,
  ]);
  expect(finished.exitCode).toBe(2);
});

test('a target that echoes the token: the recording holds it redacted and says so, and judge says the verdicts may differ there', async () => {
  const target = await hostileTargets['echoes-credentials'](TOKEN);
  cleanUpAfterAll(target.close);
  const live = await inProcess.run(['--base-url', target.url, '--token', TOKEN]);
  cleanUpAfterAll(live.cleanup);
  expect(live.code, live.stdout).toBe(0);
  const text = await readFile(join(live.outDir, 'recording.json'), 'utf8');
  expect(tokenForms().filter((form) => text.includes(form))).toEqual([]);
  const redacted = recordingOf(live).runs[0]?.exchanges.filter((entry) => 'tokenRedacted' in entry) ?? [];
  expect(redacted.length).toBeGreaterThan(0);
  expect(JSON.stringify(redacted)).toContain('<redacted>');
  const judged = await judge([join(live.outDir, 'recording.json')]);
  expect(judged.stdout).toContain(`${redacted.length} answer(s) held a secret or a credential, which the recording holds as <redacted>`);
});

describe('judge: a recording judged again, offline, reaches the verdicts of the live run', () => {
  const comparable = (report: Report | undefined): unknown => ({
    verdict: report?.verdict,
    exitCode: report?.exitCode,
    requirements: report?.requirements,
    diagnoses: report?.diagnoses,
    requests: report?.requests,
  });

  test.concurrent.each([
    ['a front end answering HTML for everything', ['html-page-200']],
    ['a target that accepts any credentials', ['wrong-token-accepted', 'missing-header-accepted']],
  ])('%s', async (_name, variants) => {
    const live = await liveRun(variants);
    expect([0, 1, 2]).toContain(live.code);
    const judged = await judge([join(live.outDir, 'recording.json')]);
    expect(judged.stderr).toBe('');
    expect(judged.code).toBe(live.code);
    expect(comparable(judged.report)).toEqual(comparable(live.report));
    expect(failedRequirements(judged.report)).toEqual(failedRequirements(live.report));
    expect(judged.stdout).toContain('no request was sent');
    expect(lastLine(judged)).toBe(lastLine(live));
    for (const name of ['report.md', 'junit.xml']) {
      const [a, b] = await Promise.all([readFile(join(live.outDir, name), 'utf8'), readFile(join(judged.outDir, name), 'utf8')]);
      expect(b).toBe(a);
    }
  });

  // Recorded once by npm run fixtures:recordings, from the reference server as it is and with these faults.
  test.concurrent.each([
    ['reference', 0, []],
    ['colour-missing', 1, expectedKills['colour-missing'] ?? []],
    ['authorization-stripped', 1, expectedKills['authorization-stripped'] ?? []],
  ] as const)('the kept recording of %s: the verdicts of the run that recorded it', async (name, exit, failed) => {
    const judged = await judge([join(FIXTURE_RECORDINGS, `${name}.recording.json`)]);
    expect(judged.stderr).toBe('');
    expect(judged.code).toBe(exit);
    expect(failedRequirements(judged.report)).toEqual([...failed].sort());
    expect(judged.stdout).toContain('no request was sent');
  });
});

describe('judge says what a recording lacks or what changed, instead of guessing', () => {
  test('a recording from an older suite with another catalog and a missing answer', async () => {
    const live = await liveRun([]);
    const recording = recordingOf(live);
    const [first, second, ...rest] = recording.requirements;
    if (!first || !second) throw new Error('the recording lists no requirements');
    recording.suite.version = '0.0.1';
    recording.integrity.catalog = `sha256:${'0'.repeat(64)}`;
    // The older catalog lacked the first requirement, worded the second otherwise, and had one since removed.
    recording.requirements = [
      { ...second, hash: `sha256:${'1'.repeat(64)}` },
      ...rest,
      { id: 'OLD-GONE', level: 'MUST', hash: second.hash },
    ];
    const run = recording.runs[0];
    if (!run) throw new Error('the recording has no run');
    // Nor did it ask for the self-service list without credentials.
    run.exchanges = run.exchanges.filter((entry) => entry.key !== 'no-header /api/selfservice/type?');
    const path = join(live.outDir, 'older.json');
    await writeFile(path, JSON.stringify(recording));

    const judged = await judge([path]);
    expect(judged.stderr).toBe('');
    expect(judged.stdout).toContain(`Recorded by suite 0.0.1; judged by ${live.report?.suite.version ?? ''}.`);
    expect(judged.stdout).toContain(`new since: ${first.id}`);
    expect(judged.stdout).toContain(`reworded or re-levelled: ${second.id}`);
    expect(judged.stdout).toContain('no longer in the catalog: OLD-GONE');
    expect(judged.stdout).toMatch(/holds no answer to requests the current specs make for SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS/);
    const lacking = judged.report?.requirements.find((result) => result.id === 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS');
    expect(lacking?.verdict).toBe('error');
    expect(lacking?.checks.map((check) => check.error?.code)).toContain('HARNESS_NOT_RECORDED');
    expect(judged.code).toBe(2);
    // What the recording does hold is judged as before.
    const others = (report: Report | undefined): unknown =>
      report?.requirements.filter((result) => result.id !== lacking?.id).map((result) => [result.id, result.verdict]);
    expect(others(judged.report)).toEqual(others(live.report));
  });

  test.concurrent.each([
    ['a missing file', () => 'nowhere.json', /could not be read: no such file or folder \(ENOENT\)/],
    ['a file that is not JSON', () => '{"format": ', /is not valid JSON \(line 1, column \d+\)/],
    ['a report instead of a recording', () => JSON.stringify(sampleReport()), /is not a recording of ticketing-conformance/],
    [
      'a recording of a later format',
      () => JSON.stringify({ format: 'ticketing-conformance-recording', formatVersion: 2, suite: { name: 'x', version: '9.0.0' } }),
      /is recording format 2, which this suite .* does not read.*Judge it with the suite that made it \(9\.0\.0\)/,
    ],
    [
      'a recording with its runs cut off',
      () => JSON.stringify({ format: 'ticketing-conformance-recording', formatVersion: 1 }),
      /does not match schemas\/recording\.schema\.json: \/ must have required property/,
    ],
  ])('%s gets one clear line and exit 2', async (_name, content, line) => {
    const dir = await tempFolder('judge-bad-');
    const text = content();
    const path = text === 'nowhere.json' ? join(dir, text) : join(dir, 'recording.json');
    if (path.endsWith('recording.json')) await writeFile(path, text);
    const result = await inProcess.exec(['judge', path, '--out', join(dir, 'out')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^HARNESS_RECORDING_UNREADABLE: /);
    expect(result.stderr).toMatch(line);
  });
});

describe('a recording from elsewhere: judge shows nothing of it that the suite did not build', () => {
  let forgedRecording: Promise<{ live: CliRun; recording: RecordingFile }> | undefined;
  /** One live run against a target with a failure, whose recording each test forges in its own way. */
  const forgeable = (): Promise<{ live: CliRun; recording: RecordingFile }> => {
    forgedRecording ??= liveRun(['colour-missing']).then((live) => ({ live, recording: recordingOf(live) }));
    return forgedRecording.then(({ live, recording }) => ({ live, recording: structuredClone(recording) }));
  };
  const entriesOf = (recording: RecordingFile): RecordingFile['runs'][number]['exchanges'] =>
    recording.runs.flatMap((run) => run.exchanges);

  test('the Repro line is built again from the URL and the credentials, never the curl the file holds', async () => {
    const { live, recording } = await forgeable();
    for (const entry of entriesOf(recording)) if ('request' in entry) entry.request.curl = 'curl -sS http://h.example/; touch pwned #';
    const path = join(live.outDir, 'forged-curl.json');
    await writeFile(path, JSON.stringify(recording));
    const judged = await judge([path]);
    expect(judged.code).toBe(1);
    expect(judged.stdout).not.toContain('pwned');
    expect(JSON.stringify(judged.report)).not.toContain('pwned');
    const repros = (report: Report | undefined): Record<string, string> =>
      Object.fromEntries(Object.entries(report?.exchanges ?? {}).map(([key, exchange]) => [key, exchange.repro]));
    expect(repros(judged.report)).toEqual(repros(live.report));
    expect(judged.stdout).toMatch(/^ {2}Repro: {4}curl -sS -u '<API_TOKEN>:x' 'http:\/\/127\.0\.0\.1:\d+\/api\/ticket\/status\/1'$/m);
  });

  test('a URL the file chose is one quoted word of the repro, whatever it holds', () => {
    const url = 'http://h.example/it\'s $(touch pwned) `id` "x"\n;';
    const run: RecordingRun = {
      startedAt: new Date(0).toISOString(),
      traffic: { sent: 1, rateLimited: 0, waitedMs: 0 },
      tlsCertificates: [],
      exchanges: [
        {
          key: 'valid /',
          request: { method: 'GET', url, path: '/', credentials: 'valid', credentialsDescription: '', headers: {}, curl: 'touch pwned' },
          response: {
            status: 200,
            headers: {},
            bodyText: '',
            bodyTruncated: false,
            bytes: 0,
            json: { ok: false, error: '' },
            durationMs: 0,
          },
        },
      ],
    };
    const answer = recordingOfRun(run).answers['valid /'];
    const curl = answer && 'exchange' in answer ? answer.exchange.request.curl : '';
    // The words a shell makes of it, printed one a line instead of run.
    const words = execFileSync('bash', ['-c', `printf '%s\\0' ${curl.replace(/^curl /, '')}`])
      .toString()
      .split('\0')
      .slice(0, -1);
    expect(words).toEqual(['-sS', '-u', '<API_TOKEN>:x', url]);
  });

  test('a body longer than a run keeps is refused in one line, exit 2', async () => {
    const { live, recording } = await forgeable();
    const entry = entriesOf(recording).find((candidate) => 'response' in candidate);
    if (!entry || !('response' in entry)) throw new Error('the recording holds no answer');
    entry.response.bodyText = 'a'.repeat(REPORTED_BODY_CHARS + 1);
    const path = join(live.outDir, 'long-body.json');
    await writeFile(path, JSON.stringify(recording));
    const result = await inProcess.exec(['judge', path, '--out', join(live.outDir, 'long-body')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^HARNESS_RECORDING_UNREADABLE: .* holds a body longer than the \d+ characters a run keeps/);
  });
});

test('the recording schema names every credentials variant the suite sends, and no other', () => {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'recording.schema.json'), 'utf8')) as {
    $defs: { exchange: { properties: { request: { properties: { credentials: { enum: string[] } } } } } };
  };
  expect([...schema.$defs.exchange.properties.request.properties.credentials.enum].sort()).toEqual([...CREDENTIAL_VARIANTS].sort());
});

test('the API document hash is that of the document the catalog quotes', () => {
  const document = readFileSync(join(repoRoot, '..', 'shared', 'api-document.md'));
  expect(`sha256:${createHash('sha256').update(document).digest('hex')}`).toBe(apiDocumentHash);
});
