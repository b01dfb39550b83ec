import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validate as validateCtrf, type CTRFReport } from 'ctrf';
import { validateXML } from 'xmllint-wasm';
import { formatSchemaErrors, validator } from '../../src/validators/schemas.js';
import { repoRoot, type CliRun } from './run-cli.js';

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
  // A report off its schema is also said as an error of the suite in the report itself.
  for (const error of run.report?.errors ?? []) if (error.code === 'HARNESS_INTERNAL') problems.push(`report.json: ${error.message}`);
  return problems;
}
