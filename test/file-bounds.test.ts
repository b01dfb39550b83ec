import { execFile } from 'node:child_process';
import { mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import { MAX_FILE_BYTES, MAX_FILE_JSON_DEPTH, MAX_FILE_JSON_VALUES } from '../src/files/bounded-file.js';
import { loadConfig } from '../src/config/load.js';
import { ConfigError } from '../src/errors.js';
import { MAX_HEADER_CHARS, MAX_HEADER_COUNT, MAX_HEADER_NAME_CHARS } from '../src/exchange/header-bounds.js';
import { fileResources } from './helpers/file-resources.js';
import { sampleReport } from './helpers/sample-report.js';
import { repoRoot } from './helpers/run-cli.js';

const { inProcess, tempFolder } = fileResources();
let dir = '';
/** Files no run writes, by what they are. */
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = await tempFolder('conformance-file-bounds-');
  files['a named pipe'] = join(dir, 'fifo.json');
  await promisify(execFile)('mkfifo', [files['a named pipe']]);
  files['a device'] = '/dev/zero';
  files['a folder'] = join(dir, 'folder.json');
  await mkdir(files['a folder']);
  // Sparse: its size is what is refused, before a byte of it is read.
  files['a file over the cap'] = join(dir, 'large.json');
  await writeFile(files['a file over the cap'], '');
  await truncate(files['a file over the cap'], MAX_FILE_BYTES + 1);
  files['deep JSON'] = join(dir, 'deep.json');
  await writeFile(files['deep JSON'], `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  files['JSON of too many values'] = join(dir, 'dense.json');
  await writeFile(files['JSON of too many values'], `[${'0,'.repeat(MAX_FILE_JSON_VALUES)}0]`);
});

const path = (kind: string): string => files[kind] ?? '';

/** Each file the suite reads, as a command line naming it, and the code of its one line. */
const readers: [string, (file: string) => string[], RegExp][] = [
  ['judge RECORDING', (file) => ['judge', file, '--out', join(dir, 'out')], /^HARNESS_RECORDING_UNREADABLE: /],
  ['verify REPORT', (file) => ['verify', file], /^HARNESS_REPORT_UNREADABLE: /],
  ['diff OLD NEW', (file) => ['diff', file, file], /^CONFIG_INVALID: the report /],
  ['--targets FILE', (file) => ['--targets', file, '--out', join(dir, 'out')], /^CONFIG_INVALID: the targets file /],
  ['--baseline FILE', (file) => ['--baseline', file, '--out', join(dir, 'out')], /^CONFIG_INVALID: the baseline /],
  ['--ca FILE', (file) => ['--ca', file, '--base-url', 'https://h.example', '--token', 'bounds-token-1'], /^CONFIG_INVALID: --ca /],
];

const refusals: [string, RegExp][] = [
  ['a named pipe', /is a named pipe, not a regular file/],
  ['a device', /is a device, not a regular file/],
  ['a folder', /is a folder, not a file/],
  ['a file over the cap', new RegExp(`is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`)],
];

async function expectOneLine(args: string[], code: RegExp, reason: RegExp): Promise<void> {
  const result = await inProcess.exec(args);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(code);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).not.toContain('bug in the suite');
}

test.concurrent.for(
  readers.flatMap(([reader, args, code]) => refusals.map(([kind, reason]) => [reader, kind, args, code, reason] as const)),
)('%s: %s is refused at once in one line, exit 2', async ([, kind, args, code, reason]) => {
  await expectOneLine(args(path(kind)), code, reason);
});

test.concurrent.for(
  readers
    .filter(([reader]) => reader !== '--ca FILE')
    .flatMap(([reader, args, code]) => [
      [reader, 'deep JSON', args, code, new RegExp(`is nested more than ${MAX_FILE_JSON_DEPTH} levels deep`)] as const,
      [reader, 'JSON of too many values', args, code, new RegExp(`holds more than ${MAX_FILE_JSON_VALUES} JSON values`)] as const,
    ]),
)('%s: %s is refused before it is parsed, in one line, exit 2', async ([, kind, args, code, reason]) => {
  await expectOneLine(args(path(kind)), code, reason);
});

/** Headers past each bound the suite reads an answer within, by the bound. */
const headersPast: [string, Record<string, string>, RegExp][] = [
  [
    'count',
    Object.fromEntries(Array.from({ length: MAX_HEADER_COUNT + 1 }, (_, index) => [`x-${index}`, 'h'])),
    new RegExp(`headers are more than ${MAX_HEADER_COUNT} headers, the most the suite reads of one answer`),
  ],
  [
    'name length',
    { [`x-${'n'.repeat(MAX_HEADER_NAME_CHARS)}`]: 'h' },
    new RegExp(`headers have a name longer than ${MAX_HEADER_NAME_CHARS} characters`),
  ],
  [
    'length together',
    { 'x-long': 'h'.repeat(MAX_HEADER_CHARS) },
    new RegExp(`headers are longer than ${MAX_HEADER_CHARS} characters together`),
  ],
];

test.concurrent.for(headersPast)(
  'judge: a recording holding an answer past the header %s is refused in one line',
  async ([, headers, reason]) => {
    const recording = JSON.parse(await readFile(join(repoRoot, 'test/fixtures/recordings/reference.recording.json'), 'utf8')) as {
      runs: { exchanges: { response?: { headers: Record<string, string> } }[] }[];
    };
    const answer = recording.runs[0]?.exchanges.find((entry) => entry.response)?.response;
    if (answer) answer.headers = { ...answer.headers, ...headers };
    const file = join(dir, `recording-${Object.keys(headers).length}-${Object.keys(headers)[0]?.length}.json`);
    await writeFile(file, JSON.stringify(recording));
    await expectOneLine(['judge', file, '--out', join(dir, 'out')], /^HARNESS_RECORDING_UNREADABLE: /, reason);
  },
);

test.concurrent.for(headersPast)(
  'compare and history: a report holding an answer past the header %s is refused in one line',
  async ([, headers, reason]) => {
    const report = structuredClone(sampleReport());
    const exchange = Object.values(report.exchanges)[0];
    if (exchange) exchange.response.headers = { ...exchange.response.headers, ...headers };
    const folder = join(dir, `history-${Object.keys(headers).length}-${Object.keys(headers)[0]?.length}`);
    await mkdir(folder);
    const file = join(folder, 'report.json');
    await writeFile(file, JSON.stringify(report));
    await expectOneLine(['compare', file, file], /^CONFIG_INVALID: the report /, reason);
    // history leaves out, in one line each, the reports it cannot read, then finds none to show.
    const history = await inProcess.exec(['history', folder, '--out', join(folder, 'out')]);
    expect(history.code).toBe(2);
    expect(history.stderr).toMatch(new RegExp(`^Left out report.json: the report .* ${reason.source}`));
    expect(history.stderr).not.toContain('bug in the suite');
  },
);

test('a .env that is not a regular file is a configuration error, not a hang', () => {
  for (const [kind, reason] of refusals.filter(([kind]) => kind !== 'a file over the cap')) {
    const refusal = (() => {
      try {
        loadConfig([], {}, path(kind));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal, kind).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).oneLine()).toMatch(reason);
  }
});

test('docs/safety.md states the bounds the reader keeps', async () => {
  const safety = await readFile(join(repoRoot, 'docs', 'safety.md'), 'utf8');
  expect(safety).toContain(`over ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  expect(safety).toContain(`more than ${MAX_FILE_JSON_DEPTH} levels deep`);
  expect(safety).toContain(`more than ${MAX_FILE_JSON_VALUES.toLocaleString('en-US')} values`);
  expect(safety).toContain(`more than ${MAX_HEADER_COUNT} headers, a name over ${MAX_HEADER_NAME_CHARS} characters`);
  expect(safety).toContain(`over ${MAX_HEADER_CHARS.toLocaleString('en-US')} characters together`);
});
