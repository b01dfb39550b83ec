import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validate as validateCtrf, type CTRFReport } from 'ctrf';
import { validateXML } from 'xmllint-wasm';
import { formatSchemaErrors, validator } from '../../src/validators/schemas.js';
import { repoRoot, type CliRun } from './run-cli.js';

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The HAR 1.2 shape as the har-schema package publishes it (draft-06, with its own keywords such as "optional"). */
export function harValidator(): ReturnType<Ajv['compile']> {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  const schemas = require('har-schema') as Record<string, { $id: string }>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  const har = ajv.getSchema('har.json#');
  if (!har) throw new Error('har-schema has no har.json');
  return har;
}

/** What schema each file a run wrote breaks, one line each; empty when every file keeps to its own. */
export async function schemaProblems(run: CliRun): Promise<string[]> {
  const read = (name: string): Promise<string> => readFile(join(run.outDir, name), 'utf8');
  const problems: string[] = [];
  const checkReport = validator('report');
  if (!checkReport(JSON.parse(await read('report.json')))) problems.push(`report.json: ${formatSchemaErrors(checkReport.errors)}`);
  const ctrf = validateCtrf(JSON.parse(await read('ctrf.json')) as CTRFReport);
  if (!ctrf.valid) problems.push(`ctrf.json: ${JSON.stringify(ctrf.errors)}`);
  const junit = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: await read('junit.xml') }],
    schema: [{ fileName: 'junit.xsd', contents: await readFile(join(repoRoot, 'schemas', 'junit.xsd'), 'utf8') }],
  });
  if (!junit.valid) problems.push(`junit.xml: ${junit.errors.map((error) => error.rawMessage).join('; ')}`);
  // The recording, where the run wrote it: recording.json against its own schema, recording.har against HAR 1.2's.
  if (existsSync(join(run.outDir, 'recording.json'))) {
    const checkRecording = validator('recording');
    if (!checkRecording(JSON.parse(await read('recording.json'))))
      problems.push(`recording.json: ${formatSchemaErrors(checkRecording.errors)}`);
    const checkHar = harValidator();
    if (!checkHar(JSON.parse(await read('recording.har')))) problems.push(`recording.har: ${JSON.stringify(checkHar.errors)}`);
  }
  // A report off its schema is also said as an error of the suite in the report itself.
  for (const error of run.report?.errors ?? []) if (error.code === 'HARNESS_INTERNAL') problems.push(`report.json: ${error.message}`);
  return problems;
}
