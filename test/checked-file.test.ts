import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Baseline } from '../src/config/baseline.js';
import { ConfigError, HarnessError } from '../src/errors.js';
import { MAX_FILE_BYTES } from '../src/files/bounded-file.js';
import { readCheckedFile, type FileKind } from '../src/files/checked-file.js';
import { fileResources } from './helpers/file-resources.js';

const { tempFolder } = fileResources();
let dir = '';

const VALID: Baseline = {
  schemaVersion: 1,
  knownFailures: [{ requirement: 'STATUS-COLOUR', reason: 'known', owner: 'ops', expires: '2031-01-31' }],
};

/** Files by what they are, each written once. */
const files = {
  valid: 'valid.json',
  'valid YAML': 'valid.yaml',
  missing: 'missing.json',
  oversized: 'oversized.json',
  'not JSON': 'broken.json',
  'not YAML': 'broken.yaml',
  'invalid against the schema': 'invalid.json',
  'empty, as YAML': 'empty.yaml',
  'of blank lines, as JSON': 'blank.json',
};
type FileName = keyof typeof files;
const path = (name: FileName): string => join(dir, files[name]);

beforeAll(async () => {
  dir = await tempFolder('conformance-checked-file-');
  await writeFile(path('valid'), JSON.stringify(VALID));
  await writeFile(
    path('valid YAML'),
    'schemaVersion: 1\nknownFailures:\n  - requirement: STATUS-COLOUR\n    reason: known\n    owner: ops\n    expires: 2031-01-31\n',
  );
  // Sparse: its size is what is refused, before a byte of it is read.
  await writeFile(path('oversized'), '');
  await truncate(path('oversized'), MAX_FILE_BYTES + 1);
  await writeFile(path('not JSON'), '{"schemaVersion": 1,');
  await writeFile(path('not YAML'), 'schemaVersion: [1\n');
  await writeFile(path('invalid against the schema'), JSON.stringify({ ...VALID, schemaVersion: 2 }));
  await writeFile(path('empty, as YAML'), '');
  await writeFile(path('of blank lines, as JSON'), '\n  \n');
});

const kinds: Record<string, FileKind<Baseline>> = {
  'a configuration file': { what: 'the test file', code: 'CONFIG_INVALID', schema: 'baseline', yaml: true },
  'a file a run wrote': {
    what: 'the test file',
    code: 'HARNESS_RECORDING_UNREADABLE',
    hint: 'Pass the file a run wrote',
    schema: 'baseline',
    invalidHint: 'Pass it as a run wrote it',
    yaml: true,
  },
};

function refusalOf(name: FileName, kind: FileKind<Baseline>): HarnessError {
  try {
    readCheckedFile(path(name), kind);
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error(`${name} was read`);
}

describe.each(Object.entries(kinds))('%s', (_kind, kind) => {
  test('a valid file, JSON or YAML, is read as it is', () => {
    expect(readCheckedFile(path('valid'), kind)).toEqual(VALID);
    expect(readCheckedFile(path('valid YAML'), kind)).toEqual(VALID);
  });

  test.each<[FileName, RegExp, string | undefined]>([
    ['missing', /^the test file \S+missing\.json could not be read: no such file or folder \(ENOENT\)$/, kind.hint],
    ['oversized', /^the test file \S+oversized\.json is larger than 32 MiB, more than any file a run writes$/, kind.hint],
    ['not JSON', /^the test file \S+broken\.json is not valid JSON \(line 1, column \d+\)$/, kind.hint],
    ['not YAML', /^the test file \S+broken\.yaml is not valid YAML \(line \d+, column \d+\)$/, kind.hint],
    ['empty, as YAML', /^the test file \S+empty\.yaml is empty$/, kind.hint],
    ['of blank lines, as JSON', /^the test file \S+blank\.json is empty$/, kind.hint],
    [
      'invalid against the schema',
      /^the test file \S+invalid\.json does not match schemas\/baseline\.schema\.json: \/schemaVersion must be equal to constant$/,
      kind.invalidHint ?? 'See schemas/baseline.schema.json and the README',
    ],
  ])('a file %s is one error of the kind: its code, what is wrong, the fix', (name, message, hint) => {
    const error = refusalOf(name, kind);
    expect(error.code).toBe(kind.code);
    expect(error.party).toBe('environment');
    expect(error.message).toMatch(message);
    expect(error.hint).toBe(hint ?? 'Check the path and the file (is it the right one?)');
    expect(error.oneLine().split('\n')).toHaveLength(1);
  });
});

test('a configuration file is refused as a configuration error, a file a run wrote is not', () => {
  expect(refusalOf('missing', kinds['a configuration file'] as FileKind<Baseline>)).toBeInstanceOf(ConfigError);
  expect(refusalOf('missing', kinds['a file a run wrote'] as FileKind<Baseline>)).not.toBeInstanceOf(ConfigError);
});

test('a kind read as JSON alone refuses YAML as JSON, whatever the extension', () => {
  const jsonOnly: FileKind<Baseline> = { what: 'the test file', code: 'CONFIG_INVALID', schema: 'baseline' };
  expect(refusalOf('valid YAML', jsonOnly).message).toMatch(/valid\.yaml is not valid JSON/);
});

test('prepare refuses a file of another kind before the schema is checked, and may change what is checked', () => {
  const prepared: FileKind<Baseline> = {
    what: 'the test file',
    code: 'CONFIG_INVALID',
    schema: 'baseline',
    prepare: (data, refuse) => {
      if ((data as { schemaVersion?: unknown }).schemaVersion === 2) throw refuse('is of version 2', 'Use version 1');
      return data;
    },
  };
  const refusal = refusalOf('invalid against the schema', prepared);
  expect([refusal.message, refusal.hint]).toEqual([`the test file ${path('invalid against the schema')} is of version 2`, 'Use version 1']);
  const upgraded: FileKind<Baseline> = { ...prepared, prepare: (data) => ({ ...(data as object), schemaVersion: 1 }) };
  expect(readCheckedFile(path('invalid against the schema'), upgraded)).toEqual(VALID);
});
