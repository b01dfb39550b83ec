import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatSchemaErrors, validator } from '../src/validators/schemas.js';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { configurationHash, contentHash, reportJson } from '../src/report/model/integrity.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot, runCli, type CliRun } from './helpers/run-cli.js';
import { opensslMissing, startTlsFront } from './helpers/tls-front.js';
import { canonicalJson, catalogHash, textSha256 } from '../src/hash.js';
import { sampleReport } from './helpers/sample-report.js';

const TOKEN = 'record-token-0b9e21';
const SERVER_HEADER = 'Apache/2.4.62 (Debian)';

const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();
let server: RunningReferenceServer | undefined;
let run: CliRun | undefined;
let workDir = '';

beforeAll(async () => {
  workDir = await tempFolder('conformance-record-');
  server = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(server.close);
  run = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
  cleanUpAfterAll(run.cleanup);
});

function written(): { run: CliRun; report: Report; path: string } {
  if (!run?.report) throw new Error('the run wrote no report.json');
  return { run, report: run.report, path: join(run.outDir, 'report.json') };
}

const flipped = (verdict: Report['verdict']): Report['verdict'] => (verdict === 'conformant' ? 'not-conformant' : 'conformant');

/** Writes a variant of the report and verifies it: what verify says, on stdout or (exit 2) as its one line on stderr. */
async function verifyVariant(name: string, content: string, ...extra: string[]): Promise<{ code: number; out: string }> {
  const path = join(workDir, name);
  await writeFile(path, content);
  const result = await inProcess.exec(['verify', path, ...extra]);
  return { code: result.code, out: (result.code === 2 ? result.stderr : result.stdout).trimEnd() };
}

test('report.json carries the suite version, catalog, configuration and content hashes, and matches its schema', async () => {
  const { report, path } = written();
  const onDisk = JSON.parse(await readFile(path, 'utf8')) as Report;
  const validate = validator('report');
  expect(validate(onDisk) ? 'valid' : formatSchemaErrors(validate.errors)).toBe('valid');
  expect(report.suite.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(report.integrity?.catalog).toBe(catalogHash);
  expect(report.integrity?.configuration).toBe(configurationHash(report));
  expect(report.integrity?.content).toBe(contentHash(onDisk));
  expect(JSON.stringify(report.integrity)).not.toContain(TOKEN);
});

test('report.json is the canonical JSON its content hash is taken over, with the hash in its place', async () => {
  const { report, path } = written();
  const text = await readFile(path, 'utf8');
  expect(text).toBe(`${canonicalJson(report)}\n`);
  const { content, ...hashes } = report.integrity ?? {};
  expect(content).toBe(textSha256(canonicalJson({ ...report, integrity: hashes })));
});

test('report.json as written is the text screened, byte for byte, whatever characters a target put before and after the hash', () => {
  // Characters of one, two, three and four UTF-8 bytes, and a lone surrogate JSON escapes, in a body, a header and a check.
  for (const hostile of ['Unauthorized', 'Zugriff verweigert: Schlüssel ungültig', '認証が必要です \u{1F512}', 'half \uD800 pair']) {
    const report = sampleReport(hostile);
    const json = reportJson(report);
    if (typeof json === 'string' || !json.bytes) throw new Error('the build kept no screened text with its bytes');
    expect(Buffer.from(json.bytes).toString('utf8')).toBe(json.text);
    expect(json.text).toBe(`${canonicalJson(report)}\n`);
    expect(report.integrity?.content).toBe(contentHash(JSON.parse(json.text)));
  }
});

test('the run prints the content hash; verify says intact (exit 0) untouched and edited (exit 1) after a hand edit', async () => {
  const { run: finished, report, path } = written();
  const hash = report.integrity?.content ?? 'missing';
  expect(finished.stdout).toContain(`Content hash of ${path}: ${hash}`);
  const result = await inProcess.exec(['verify', path, '--expect', hash]);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toMatch(/^INTACT: /);
  expect(result.stdout).toContain('(the same as this suite’s)');

  const edited = join(workDir, 'edited-by-hand.json');
  const original = await readFile(path, 'utf8');
  const handEdited = original.replace(`"verdict":"${report.verdict}"`, `"verdict":"${flipped(report.verdict)}"`);
  expect(handEdited).not.toBe(original);
  await writeFile(edited, handEdited);
  expect(await inProcess.exec(['verify', edited])).toMatchObject({ code: 1, stdout: expect.stringMatching(/^EDITED: /) });
});

test('a report laid out differently but with the same content is still intact', async () => {
  const reordered = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reordered)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, item]) => [key, reordered(item)]),
          )
        : value;
  const { report } = written();
  expect(await verifyVariant('reordered.json', JSON.stringify(reordered(report)))).toMatchObject({ code: 0 });
});

describe('an edited report is caught (exit 1)', () => {
  test.each([
    ['a verdict', (report: Report) => void (report.verdict = flipped(report.verdict))],
    ['a count', (report: Report) => void (report.totals.fail += 1)],
    [
      'a check deep inside',
      (report: Report) => void (report.requirements[0]?.checks[0] ? (report.requirements[0].checks[0].description += ' ') : 0),
    ],
    ['a requirement removed', (report: Report) => void report.requirements.pop()],
    ['the catalog hash', (report: Report) => void (report.integrity ? (report.integrity.catalog = `sha256:${'0'.repeat(64)}`) : 0)],
  ])('changed: %s', async (name, edit) => {
    const report = structuredClone(written().report);
    edit(report);
    const result = await verifyVariant(`edited-${name.replaceAll(' ', '-')}.json`, JSON.stringify(report, null, 2));
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/^EDITED: .* was changed after the run/);
  });

  test('edited and hashed again: caught only against the hash the run printed', async () => {
    const { report } = written();
    const printed = report.integrity?.content ?? 'missing';
    const forged = structuredClone(report);
    forged.verdict = flipped(forged.verdict);
    if (forged.integrity) forged.integrity.content = contentHash(forged);
    const text = JSON.stringify(forged);
    expect(await verifyVariant('forged.json', text)).toMatchObject({ code: 0 });
    const result = await verifyVariant('forged-expect.json', text, '--expect', printed);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`but the run printed ${printed}`);
  });
});

test.each([
  ['not JSON', '{"verdict": "conformant"', /is not valid JSON \(line 1, column \d+\)/],
  ['no content hash', '{"verdict": "conformant"}', /carries no content hash/],
  ['an empty file', '', /is empty/],
])('a report that is %s cannot be verified (exit 2)', async (_name, content, reason) => {
  const result = await verifyVariant(`unreadable-${content.length}.json`, content);
  expect(result.code).toBe(2);
  expect(result.out).toMatch(/^HARNESS_REPORT_UNREADABLE: /);
  expect(result.out).toMatch(reason);
});

test('a missing report, or no report named, cannot be verified (exit 2)', async () => {
  const [absent, unnamed] = await Promise.all([inProcess.exec(['verify', join(workDir, 'absent.json')]), inProcess.exec(['verify'])]);
  expect(absent).toMatchObject({ code: 2, stderr: expect.stringMatching(/^HARNESS_REPORT_UNREADABLE: .*ENOENT/) });
  expect(unnamed).toMatchObject({ code: 2, stderr: expect.stringMatching(/^CONFIG_INVALID: verify takes one/) });
});

describe.skipIf(opensslMissing !== undefined)(
  `the fingerprint of an https target${opensslMissing ? ` (skipped: ${opensslMissing})` : ''}`,
  () => {
    test('records the Server header and the certificate fingerprint, with no request of its own', async () => {
      const { report: plain } = written();
      const front = await startTlsFront(server?.url ?? '', SERVER_HEADER);
      cleanUpAfterAll(front.close);
      // The real CLI: Node reads NODE_EXTRA_CA_CERTS from the environment only when its process starts.
      const secure = await runCli(['--base-url', front.url, '--token', TOKEN], { NODE_EXTRA_CA_CERTS: front.certificateFile });
      try {
        expect(secure.code).toBe(0);
        expect(secure.report?.target.fingerprint).toEqual({ server: [SERVER_HEADER], tlsCertificateSha256: [front.fingerprint] });
        expect(secure.report?.requests.sent).toBe(plain.requests.sent);
        expect(plain.target.fingerprint).toEqual({ server: [], tlsCertificateSha256: [] });
      } finally {
        await secure.cleanup();
      }
    });
  },
);

/** Canonical JSON as its definition reads, built the plain way, to hold the suite's faster one to. */
function plainCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => plainCanonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    const sorted = entries.map(([key]) => key).sort();
    return `{${sorted.map((key) => `${JSON.stringify(key)}:${plainCanonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The value with each object's keys in an order of its own: reversed, or turned by a step that differs per object. */
function shuffled(value: unknown, turn = 0): unknown {
  if (Array.isArray(value)) return value.map((item: unknown, index) => shuffled(item, turn + index));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const step = entries.length === 0 ? 0 : turn % entries.length;
  const order = turn % 2 === 0 ? [...entries].reverse() : [...entries.slice(step), ...entries.slice(0, step)];
  return Object.fromEntries(order.map(([key, item], index) => [key, shuffled(item, turn + index + 1)]));
}

test('canonical JSON of real reports, their keys in any order, is the plain sorted text, and the text report.json holds', async () => {
  const reports = [await readFile(written().path, 'utf8')];
  for (const name of ['reference', 'colour-missing', 'authorization-stripped']) {
    const out = join(workDir, `canonical-${name}`);
    await inProcess.exec(['judge', join(repoRoot, `test/fixtures/recordings/${name}.recording.json`), '--out', out, '--quiet']);
    reports.push(await readFile(join(out, 'report.json'), 'utf8'));
  }
  for (const text of reports) {
    const report = JSON.parse(text) as unknown;
    for (const turn of [0, 1, 2, 5]) {
      const laidOut = shuffled(report, turn);
      expect(canonicalJson(laidOut)).toBe(plainCanonicalJson(laidOut));
      expect(`${canonicalJson(laidOut)}\n`).toBe(text);
    }
  }
  // Keys past the few sorted by insertion, and keys whose code units order them apart from their code points.
  const many = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`k${(index * 37) % 80}\u{1F600}`, index]));
  const units = { '\uFFFF': 1, '\u{1F600}': 2, é: 3, e: 4, E: 5, '': 6, ' ': 7 };
  for (const value of [many, units, { nested: [units, { many }] }]) {
    expect(canonicalJson(shuffled(value, 3))).toBe(plainCanonicalJson(value));
  }
  expect(canonicalJson(units)).toBe('{"":6," ":7,"E":5,"e":4,"é":3,"\u{1F600}":2,"\uFFFF":1}');
});

test('canonical JSON orders keys by code unit, numeric-looking ones too, and leaves out what JSON leaves out', () => {
  const value = { b: 1, '10': [undefined, 'x', { z: null, a: undefined }], '9': true, A: 'é"\n', a: { y: 2, x: [] } };
  expect(canonicalJson(value)).toBe('{"10":[null,"x",{"z":null}],"9":true,"A":"é\\"\\n","a":{"x":[],"y":2},"b":1}');
  // The same value in another key order, as report.json read back gives it, hashes alike.
  expect(canonicalJson(JSON.parse(JSON.stringify({ a: value.a, b: 1, A: value.A, '9': true, '10': value['10'] })))).toBe(
    canonicalJson(value),
  );
  // A header a server named __proto__ is a key like any other.
  const headers = JSON.parse('{"x-b":"1","__proto__":{"a":"2"}}') as unknown;
  expect(canonicalJson({ headers })).toBe('{"headers":{"__proto__":{"a":"2"},"x-b":"1"}}');
});
