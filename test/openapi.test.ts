import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatSchemaErrors } from '../src/validators/schemas.js';
import { schemasDir } from '../src/paths.js';
import { catalog, isRequirementId } from '../src/requirements/catalog.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { dereferencedContract, OPENAPI_FILE, validateContract, type Contract } from './helpers/openapi.js';
import { SAFETY_NET_MS, removeFolder } from './helpers/safety-net.js';

const TOKEN = 'openapi-token-3c81d0';
const STATUS_PATH = '/api/ticket/status/{status_id}';
const SELFSERVICE_PATH = '/api/selfservice/type';
const raw = JSON.parse(readFileSync(join(schemasDir, OPENAPI_FILE), 'utf8')) as {
  paths: Record<string, { get: Record<string, unknown> & { responses: Record<string, unknown> } }>;
  components: Record<string, Record<string, unknown>>;
};

const basic = (user: string): string => `Basic ${Buffer.from(`${user}:x`).toString('base64')}`;

interface Sample {
  template: string;
  path: string;
  authorization?: string;
  status: number;
}

const samples: Sample[] = [
  { template: STATUS_PATH, path: '/api/ticket/status/1', authorization: basic(TOKEN), status: 200 },
  { template: STATUS_PATH, path: '/api/ticket/status/2', authorization: basic(TOKEN), status: 200 },
  { template: STATUS_PATH, path: '/api/ticket/status/3', authorization: basic(TOKEN), status: 200 },
  { template: STATUS_PATH, path: '/api/ticket/status/1?lang=fr', authorization: basic(TOKEN), status: 200 },
  { template: STATUS_PATH, path: '/api/ticket/status/1?lang=sw', authorization: basic(TOKEN), status: 200 },
  { template: STATUS_PATH, path: '/api/ticket/status/999', authorization: basic(TOKEN), status: 404 },
  { template: STATUS_PATH, path: '/api/ticket/status/1', authorization: basic('not-the-token'), status: 401 },
  { template: STATUS_PATH, path: '/api/ticket/status/1', status: 401 },
  { template: SELFSERVICE_PATH, path: '/api/selfservice/type', authorization: basic(TOKEN), status: 200 },
  { template: SELFSERVICE_PATH, path: '/api/selfservice/type', status: 401 },
];

let contract: Contract;
const { cleanUpAfterAll } = fileResources();
beforeAll(async () => {
  contract = await dereferencedContract();
});

async function answer(variants: string[], sample: Sample): Promise<{ status: number; contentType: string; body: unknown }> {
  const server = await startReferenceServer({ token: TOKEN, variants });
  cleanUpAfterAll(server.close);
  const response = await fetch(`${server.url}${sample.path}`, {
    headers: sample.authorization ? { authorization: sample.authorization } : {},
    signal: AbortSignal.timeout(SAFETY_NET_MS),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: await response.json() };
}

function schemaFor(template: string, status: number): { mediaType: string; validate: ReturnType<Ajv2020['compile']> } {
  const response = contract.paths[template]?.get.responses[String(status)];
  const [mediaType, media] = Object.entries(response?.content ?? {})[0] ?? [];
  if (!mediaType || !media) throw new Error(`the contract has no response body for ${template} HTTP ${status}`);
  return { mediaType, validate: new Ajv2020({ allErrors: true, strict: true }).compile(media.schema) };
}

test('schemas/openapi.json is a valid OpenAPI 3.1 document, with no warning', async () => {
  const result = await validateContract();
  expect(result).toMatchObject({ valid: true, warnings: [] });
  expect(contract.openapi).toMatch(/^3\.1\./);
});

test('the validator rejects a contract with a mistake in it', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'openapi-'));
  try {
    await cp(schemasDir, folder, { recursive: true });
    const broken = structuredClone(raw);
    (broken.components.securitySchemes as Record<string, unknown>).basicAuth = { type: 'basic' };
    await writeFile(join(folder, OPENAPI_FILE), JSON.stringify(broken));
    expect((await validateContract(folder)).valid).toBe(false);
  } finally {
    await removeFolder(folder);
  }
});

test('every response body schema is a reference to a schema in schemas/, or says its shape is not shown', () => {
  const bodies = [
    ...Object.values(raw.paths).flatMap((item) => Object.values(item.get.responses)),
    ...Object.values(raw.components.responses ?? {}),
  ].flatMap((response) => Object.values((response as { content?: Record<string, { schema: Record<string, unknown> }> }).content ?? {}));
  expect(bodies.length).toBeGreaterThan(0);
  for (const { schema } of bodies) {
    if (typeof schema.$ref === 'string') expect(existsSync(join(schemasDir, schema.$ref))).toBe(true);
    else expect(schema).toEqual({ description: 'Body shape: not shown.' });
  }
});

test('the operations list catalog requirements, and together every MUST requirement', () => {
  const listed = Object.values(raw.paths).flatMap((item) => item.get['x-conformance-requirements'] as string[]);
  expect(listed.filter((id) => !isRequirementId(id))).toEqual([]);
  const musts = catalog.filter((requirement) => requirement.level === 'MUST').map((requirement) => requirement.id);
  expect(musts.filter((id) => !listed.includes(id))).toEqual([]);
});

describe('the reference server answers as the contract says', () => {
  test.each(samples.map((sample) => [`${sample.path}${sample.authorization ? ' with credentials' : ''} -> ${sample.status}`, sample]))(
    '%s',
    async (_name, sample) => {
      const got = await answer([], sample);
      expect(got.status).toBe(sample.status);
      const { mediaType, validate } = schemaFor(sample.template, got.status);
      expect(got.contentType.startsWith(mediaType)).toBe(true);
      const valid = validate(got.body);
      expect(formatSchemaErrors(validate.errors)).toBe('');
      expect(valid).toBe(true);
    },
  );
});

describe('a faulty answer does not match the contract', () => {
  const statusSample = samples[0] as Sample;
  test.each([['colour-without-hash'], ['id-as-string'], ['message-empty-string'], ['translations-dropped'], ['locale-with-region']])(
    '%s',
    async (fault) => {
      const got = await answer([fault], statusSample);
      expect(got.status).toBe(200);
      expect(schemaFor(STATUS_PATH, 200).validate(got.body)).toBe(false);
    },
  );
});
