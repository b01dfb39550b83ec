import { execFile } from 'node:child_process';
import { mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import { MAX_FILE_BYTES, MAX_FILE_JSON_DEPTH, MAX_FILE_JSON_VALUES } from '../src/files/bounded-file.js';
import { loadConfig } from '../src/config/load.js';
import { ConfigError } from '../src/errors.js';
import { fileResources } from './helpers/file-resources.js';
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
});
