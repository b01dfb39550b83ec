import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereference, validate } from '@readme/openapi-parser';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, expect, test } from 'vitest';
import { bundleOpenapi, OPENAPI_BUNDLE } from '../scripts/generate/openapi-bundle-render.js';
import { schemasDir } from '../src/paths.js';
import { startReferenceServer, type RunningReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';

const TOKEN = 'bundle-token-90c2a7';
const bundleText = readFileSync(join(schemasDir, OPENAPI_BUNDLE), 'utf8');
const bundle = JSON.parse(bundleText) as Record<string, unknown>;

function refsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => (key === '$ref' && typeof item === 'string' ? [item] : refsOf(item)));
}

const { cleanUpAfterAll } = fileResources();
let good: RunningReferenceServer;
let broken: RunningReferenceServer;
beforeAll(async () => {
  good = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(good.close);
  broken = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  cleanUpAfterAll(broken.close);
});

test(`schemas/${OPENAPI_BUNDLE} is up to date with openapi.json and the schemas (npm run schemas:bundle)`, () => {
  expect(bundle).toEqual(bundleOpenapi(schemasDir));
});

test('every reference in the bundle is internal, and no address of a schema is left to fetch', () => {
  const refs = refsOf(bundle);
  expect(refs.length).toBeGreaterThan(0);
  expect(refs.filter((ref) => !ref.startsWith('#/'))).toEqual([]);
  expect(bundleText).not.toContain('ticketing-conformance.example');
  expect(bundleText).not.toContain('"$id"');
});

test('a stock OpenAPI parser validates and dereferences the bundle with external references switched off', async () => {
  const options = { resolve: { external: false, file: false } };
  const result = await validate(structuredClone(bundle) as never, options);
  expect(result.valid, JSON.stringify(result)).toBe(true);
  const resolved = await dereference(structuredClone(bundle) as never, options);
  expect(refsOf(resolved)).toEqual([]);
});

test('the bundled status schema accepts the reference server and refuses a status without its colour', async () => {
  const resolved = (await dereference(structuredClone(bundle) as never, { resolve: { external: false } })) as unknown as {
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: object }> }> } }>;
  };
  const schema = resolved.paths['/api/ticket/status/{status_id}']?.get.responses['200']?.content['application/json']?.schema;
  const check = new Ajv2020({ strict: false }).compile(schema ?? false);
  const fetchStatus = async (server: RunningReferenceServer): Promise<unknown> =>
    (
      await fetch(`${server.url}/api/ticket/status/1`, {
        headers: { authorization: `Basic ${Buffer.from(`${TOKEN}:x`).toString('base64')}` },
        signal: AbortSignal.timeout(SAFETY_NET_MS),
      })
    ).json();
  expect(check(await fetchStatus(good)), JSON.stringify(check.errors)).toBe(true);
  expect(check(await fetchStatus(broken))).toBe(false);
});

/** Every schema in value whose type is array, with where it is. */
function arraysOf(value: unknown, at = '#'): { at: string; schema: Record<string, unknown> }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => arraysOf(item, `${at}/${index}`));
  if (typeof value !== 'object' || value === null) return [];
  const schema = value as Record<string, unknown>;
  const own = schema.type === 'array' ? [{ at, schema }] : [];
  return [...own, ...Object.entries(schema).flatMap(([key, item]) => arraysOf(item, `${at}/${key}`))];
}

test('every array in the bundle has its items beside its type, as spectral:oas (array-items) asks, and a translation is still judged', async () => {
  const arrays = arraysOf(bundle);
  expect(arrays.map(({ at }) => at)).toContain('#/components/schemas/TicketStatus/properties/translations');
  expect(arrays.filter(({ schema }) => !('items' in schema)).map(({ at }) => at)).toEqual([]);
  const resolved = (await dereference(structuredClone(bundle) as never, { resolve: { external: false } })) as unknown as {
    components: { schemas: { TicketStatus: object } };
  };
  const check = new Ajv2020({ strict: false }).compile(resolved.components.schemas.TicketStatus);
  const status = { id: 1, name: 'Open', colour: '#00ff00', auto_close: 0, order: 1, created_at: 1, updated_at: 1 };
  expect(check({ ...status, translations: [{ status_id: 1, name: 'Offen', locale: 'de' }] })).toBe(true);
  expect(check({ ...status, translations: [{ status_id: 1, name: 'Offen' }] })).toBe(false);
});

test('spectral:oas finds nothing in the bundle: no error, no warning, no hint', async () => {
  const { Spectral, Document } = spectralCore;
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[spectralRulesets.oas, 'recommended']],
    // The API document names no one to contact about the API, and the contract invents nothing it does not say.
    rules: { 'info-contact': 'off' },
  } as never);
  const results = await spectral.run(new Document(bundleText, spectralParsers.Json, OPENAPI_BUNDLE));
  expect(results.map(({ code, path, message }) => `${String(code)} at ${path.join('.')}: ${message}`)).toEqual([]);
});
