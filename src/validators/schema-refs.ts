import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from '../paths.js';

export const SCHEMA_BASE = 'https://ticketing-conformance.example/schemas/';
export const SCHEMA_NAMES = [
  'envelope',
  'ticket-status',
  'ticket-status-envelope',
  'error',
  'report',
  'comparison',
  'targets',
  'baseline',
  'matrix',
  'recording',
] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** The parts of a schema the assertions judge one field at a time, by JSON pointer. */
const FIELD_PARENTS: [SchemaName, string][] = [
  ['envelope', ''],
  ['ticket-status', ''],
  ['ticket-status', '/$defs/translation'],
];

/** How a validator is named: the schema, and the JSON pointer of a part of it. */
export const validatorKey = (name: SchemaName, pointer = ''): string => (pointer ? `${name}#${pointer}` : name);

const loaded = new Map<SchemaName, Record<string, unknown>>();

export function schemaJson(name: SchemaName): Record<string, unknown> {
  let schema = loaded.get(name);
  if (!schema) {
    schema = JSON.parse(readFileSync(join(schemasDir, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
    loaded.set(name, schema);
  }
  return schema;
}

/** The part of a schema a JSON pointer names (only plain property names: the schemas use no ~ escapes). */
export function schemaAt(name: SchemaName, pointer = ''): Record<string, unknown> {
  let node: unknown = schemaJson(name);
  for (const step of pointer.split('/').slice(1)) node = (node as Record<string, unknown> | undefined)?.[step];
  if (typeof node !== 'object' || node === null) throw new Error(`schemas/${name}.schema.json has nothing at ${pointer}`);
  return node as Record<string, unknown>;
}

/** Every validator the suite uses: each whole schema, and each field of the parts judged field by field. */
export function validatorKeys(): { key: string; ref: string }[] {
  const whole = SCHEMA_NAMES.map((name) => ({ key: validatorKey(name), ref: `${SCHEMA_BASE}${name}.schema.json` }));
  const fields = FIELD_PARENTS.flatMap(([name, parent]) =>
    Object.keys(schemaAt(name, parent).properties as Record<string, unknown>).map((field) => {
      const pointer = `${parent}/properties/${field}`;
      return { key: validatorKey(name, pointer), ref: `${SCHEMA_BASE}${name}.schema.json#${pointer}` };
    }),
  );
  return [...whole, ...fields];
}
