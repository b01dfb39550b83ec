import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect, expectTypeOf, test } from 'vitest';
import { validatorKeys, type SchemaName } from '../src/validators/schema-refs.js';
import { formatSchemaErrors, validator } from '../src/validators/schemas.js';
import { GENERATED_VALIDATORS, validatorModuleSource } from '../scripts/generate/validator-code.js';
import { GENERATED_TYPES_DIR, schemaTypeSources } from '../scripts/generate/schema-type-code.js';
import type { Classified } from '../src/classify/types.js';
import type { Report } from '../src/report/model/types.js';
import type { Matrix } from '../src/report/matrix/types.js';
import type { RecordingFile } from '../src/record/recording-file.js';
import type * as ReportFile from '../src/validators/types/report.generated.js';
import type { TicketingConformanceMatrix } from '../src/validators/types/matrix.generated.js';
import type { TicketingConformanceRecording } from '../src/validators/types/recording.generated.js';
import { packageRoot, schemasDir } from '../src/paths.js';
import { sampleReport } from './helpers/sample-report.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const schemaFiles = readdirSync(schemasDir).filter((name) => name.endsWith('.schema.json'));

test('there are schemas to check', () => {
  expect(schemaFiles).toEqual(expect.arrayContaining(['envelope.schema.json', 'report.schema.json', 'ticket-status.schema.json']));
});

// The suite loads them without meta-validation to save start-up time, so they are held to the meta-schema here.
test.each(schemaFiles)('%s is a valid draft 2020-12 schema', (file) => {
  const ajv = new Ajv2020({ strict: true });
  const schema = JSON.parse(readFileSync(join(schemasDir, file), 'utf8')) as object;
  expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
});

test('a schema that breaks the meta-schema is caught', () => {
  const ajv = new Ajv2020({ strict: true });
  expect(ajv.validateSchema({ type: 'strng', properties: { id: { minimum: 'one' } } })).toBe(false);
});

test('the precompiled validators are those schemas/ makes now (npm run schemas:compile rewrites them)', () => {
  const committed = readFileSync(join(packageRoot, GENERATED_VALIDATORS), 'utf8');
  expect(committed === validatorModuleSource(), 'src/validators/validators.generated.ts is stale: run npm run schemas:compile').toBe(true);
});

test('the types generated from schemas/ are those schemas/ makes now (npm run schemas:types rewrites them)', async () => {
  const fresh = await schemaTypeSources();
  expect(readdirSync(join(packageRoot, GENERATED_TYPES_DIR)).sort()).toEqual([...fresh.keys()].map((path) => basename(path)).sort());
  for (const [path, source] of fresh) {
    expect(readFileSync(join(packageRoot, path), 'utf8') === source, `${path} is stale: run npm run schemas:types`).toBe(true);
  }
});

// Compile-time checks, made by npm run typecheck (part of npm test): the types the code narrows (requirement IDs, error
// codes, diagnosis IDs) still describe files their schemas accept, and the classify stage's type is the schema's.
test('what the code writes is what the schemas describe', () => {
  expectTypeOf<Report>().toExtend<ReportFile.TicketingConformanceReport>();
  expectTypeOf<Matrix>().toExtend<TicketingConformanceMatrix>();
  expectTypeOf<RecordingFile>().toExtend<TicketingConformanceRecording>();
  expectTypeOf<Classified>().toExtend<ReportFile.Classification>();
  expectTypeOf<ReportFile.Classification>().toExtend<Classified>();
  // @ts-expect-error a narrowing that strays from the schema does not compile
  expectTypeOf<Omit<Report, 'verdict'> & { verdict: 'passed' }>().toExtend<ReportFile.TicketingConformanceReport>();
});

test('every validator the suite names exists and judges like Ajv compiling the schema now', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  for (const file of schemaFiles) ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, file), 'utf8')) as object);
  const samples: unknown[] = [null, {}, 'text', 3, { status: 'success', message: 'ok', data: {} }, sampleReport()];
  for (const { key, ref } of validatorKeys()) {
    const [name, pointer] = key.split('#') as [SchemaName, string | undefined];
    const fresh = ajv.getSchema(ref);
    for (const sample of samples)
      expect({ key, sample, ok: validator(name, pointer)(sample) }).toEqual({ key, sample, ok: fresh?.(sample) });
  }
  expect(() => validator('envelope', '/properties/nope')).toThrow(/no validator for envelope#\/properties\/nope/);
});

test('a precompiled validator says why data does not match', () => {
  const validate = validator('envelope');
  expect(validate({ status: 7 })).toBe(false);
  expect(formatSchemaErrors(validate.errors)).toMatch(/\/status must /);
});

test('a oneOf told apart by its kind accepts and refuses what the published schema does, whatever the kind holds', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  for (const file of schemaFiles) ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, file), 'utf8')) as object);
  const published = ajv.getSchema('https://ticketing-conformance.example/schemas/report.schema.json');
  const origins: unknown[] = [
    { kind: 'api' },
    { kind: 'front', front: 'waf', evidence: 'a block page', vendor: 'Cloudflare' },
    { kind: 'front', front: 'waf' },
    { kind: 'front', front: 'tarpit', evidence: 'x' },
    { kind: 'unknown', evidence: 'x' },
    { kind: 'api', evidence: 'x' },
    { kind: 'API' },
    { kind: 7 },
    { kind: null },
    { kind: ['api'] },
    {},
    ['api'],
    'api',
    null,
  ];
  const meanings: unknown[] = [
    { kind: 'served-status', id: '1' },
    { kind: 'served-status' },
    { kind: 'refused' },
    { kind: 'refused', id: '1' },
    { kind: 'redirect', to: '/login' },
    { kind: 'application-error', what: 'fatal-error', evidence: 'x' },
    { kind: 'application-error', what: 'oops', evidence: 'x' },
    { kind: 'undecodable', why: 'not-json', detail: 'x' },
    { kind: 'served' },
    { kind: 1 },
    {},
  ];
  const report = sampleReport() as unknown as { exchanges: Record<string, object> };
  const [key, exchange] = Object.entries(report.exchanges)[0] ?? [];
  if (!key || !exchange) throw new Error('the sample report holds no exchange');
  let refused = 0;
  for (const origin of origins) {
    for (const meaning of meanings) {
      const sample = { ...report, exchanges: { [key]: { ...exchange, classification: { origin, meaning } } } };
      const expected = published?.(sample);
      if (!expected) refused += 1;
      expect({ origin, meaning, ok: validator('report')(sample) }).toEqual({ origin, meaning, ok: expected });
    }
  }
  // Both the accepted and the refused are among the samples.
  expect(refused).toBeGreaterThan(0);
  expect(refused).toBeLessThan(origins.length * meanings.length);
});
