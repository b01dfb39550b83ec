import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { schemasDir } from '../paths.js';

export const SCHEMA_BASE = 'https://ticketing-conformance.example/schemas/';
export type SchemaName =
  'envelope' | 'ticket-status' | 'ticket-status-envelope' | 'error' | 'report' | 'comparison' | 'targets' | 'baseline' | 'matrix';

// ajv-formats ships CommonJS; under ESM its function sits on the default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  for (const file of readdirSync(schemasDir).filter((name) => name.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, file), 'utf8')) as object);
  }
  return ajv;
}

/** A validator for a whole schema, or for a part of it named by a JSON pointer fragment. */
export function validator(name: SchemaName, pointer = ''): ValidateFunction {
  const ref = `${SCHEMA_BASE}${name}.schema.json${pointer ? `#${pointer}` : ''}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = instance().getSchema(ref);
    if (!validate) throw new Error(`schema ${ref} is not in ${schemasDir}`);
    compiled.set(ref, validate);
  }
  return validate;
}

export function schemaDescription(name: SchemaName, pointer: string): string {
  const schema = validator(name, pointer).schema as { description?: string };
  return schema.description ?? `valid against ${name}${pointer}`;
}

export function formatSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim()).join('; ');
}
