import { Ajv2020, _ } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import * as standalone from 'ajv/dist/standalone/index.js';
import { SCHEMA_NAMES, schemaJson, validatorKeys } from '../../src/validators/schema-refs.js';

// Both ship CommonJS; under ESM their function is the default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const standaloneCode = standalone.default as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

export const GENERATED_VALIDATORS = 'src/validators/validators.generated.ts';

/**
 * The source of validators.generated.ts: every validator the suite uses, compiled ahead of time by Ajv,
 * so a run loads plain functions instead of loading Ajv and compiling the schemas (about 60 ms a thread).
 */
export function validatorModuleSource(): string {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  for (const name of SCHEMA_NAMES) ajv.addSchema(schemaJson(name));
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
