import { Ajv2020, _ } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import * as standalone from 'ajv/dist/standalone/index.js';
import { SCHEMA_NAMES, schemaJson, validatorKeys } from '../../src/validators/schema-refs.js';

// Both ship CommonJS; under ESM their function is the default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const standaloneCode = standalone.default as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

export const GENERATED_VALIDATORS = 'src/validators/validators.generated.ts';

type SchemaNode = Record<string, unknown>;

/** The string values a branch of a oneOf allows its property to take, from its const or enum; undefined for any other. */
function tagValues(branch: SchemaNode, property: string): string[] | undefined {
  const required = branch.required as unknown;
  const schema = (branch.properties as Record<string, SchemaNode | undefined> | undefined)?.[property];
  if (!Array.isArray(required) || !required.includes(property) || !schema) return undefined;
  const values = 'const' in schema ? [schema.const] : schema.enum;
  return Array.isArray(values) && values.every((value) => typeof value === 'string') ? values : undefined;
}

/**
 * A copy of a schema where each oneOf whose branches are objects that each require a property (kind) with string values of their own
 * says so with Ajv's discriminator: only the branch the value names is validated, which accepts and refuses exactly what
 * the oneOf does, without the error objects of every other branch Ajv makes and throws away on each valid object. The
 * published schema stays plain JSON Schema.
 */
function discriminated(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(discriminated);
  if (node === null || typeof node !== 'object') return node;
  const copy: SchemaNode = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, discriminated(value)]));
  const branches = copy.oneOf as SchemaNode[] | undefined;
  const values = branches?.map((branch) => tagValues(branch, 'kind'));
  const all = values?.flat() ?? [];
  const objects = branches?.every((branch) => branch.type === 'object');
  if (objects && values?.every((list) => list !== undefined) && new Set(all).size === all.length) {
    // Each branch is an object, so the oneOf is too: the type Ajv asks a discriminator to state.
    Object.assign(copy, { type: 'object', discriminator: { propertyName: 'kind' } });
  }
  return copy;
}

/**
 * The source of validators.generated.ts: every validator the suite uses, compiled ahead of time by Ajv,
 * so a run loads plain functions instead of loading Ajv and compiling the schemas (about 60 ms a thread).
 */
export function validatorModuleSource(): string {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    discriminator: true,
    code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  for (const name of SCHEMA_NAMES) ajv.addSchema(discriminated(schemaJson(name)) as SchemaNode);
  const keys = validatorKeys();
  const code = standaloneCode(ajv, Object.fromEntries(keys.map(({ ref }, index) => [`v${index}`, ref])));
  return [
    '/* eslint-disable */',
    '// @ts-nocheck',
    '// Generated from schemas/ by `npm run schemas:compile`; a self-test fails when it is out of date. Do not edit.',
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    code.replace(/^"use strict";/, ''),
    `export const validators = {${keys.map(({ key }, index) => `${JSON.stringify(key)}: v${index}`).join(', ')}};`,
    '',
  ].join('\n');
}
