import type { ErrorObject } from 'ajv/dist/2020.js';
import { schemaAt, validatorKey, type SchemaName } from './schema-refs.js';
import { validators } from './validators.generated.js';

export { SCHEMA_BASE, type SchemaName } from './schema-refs.js';

/** A validator compiled ahead of time from schemas/: true when the data matches; errors says why not. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const compiled = validators as Record<string, Validator | undefined>;

/** A validator for a whole schema, or for a part of it named by a JSON pointer fragment. */
export function validator(name: SchemaName, pointer = ''): Validator {
  const validate = compiled[validatorKey(name, pointer)];
  if (!validate) {
    throw new Error(`no validator for ${validatorKey(name, pointer)}: add it to validatorKeys() and run npm run schemas:compile`);
  }
  return validate;
}

export function schemaDescription(name: SchemaName, pointer: string): string {
  const description = schemaAt(name, pointer).description;
  return typeof description === 'string' ? description : `valid against ${name}${pointer}`;
}

export function formatSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim()).join('; ');
}
