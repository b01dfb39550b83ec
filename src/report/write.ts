import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../assertions/schemas.js';
import { findSecret } from '../harness/redact.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { settleOutcome } from './build.js';
import type { Report, RunError } from './types.js';

export const ALLURE_DIR = 'allure-results';
/** The suite's own outputs in --out; nothing else there is touched. */
export const OWN_OUTPUTS = ['report.json', 'report.md', 'junit.xml', ALLURE_DIR];

export async function clearOwnOutputs(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all(OWN_OUTPUTS.map((name) => rm(join(outDir, name), { recursive: true, force: true })));
}

export function leakError(artifact: string): RunError {
  return {
    code: 'HARNESS_SECRET_LEAK',
    message: `${artifact} would have contained the API token, so it was not written`,
    hint: 'This is a bug in the suite; report it without the file',
    party: 'suite',
  };
}

/** Drops any Allure result that holds the token; returns an error per file dropped. */
async function scrubAllure(outDir: string, token: string): Promise<RunError[]> {
  const dir = join(outDir, ALLURE_DIR);
  const files = await readdir(dir).catch(() => [] as string[]);
  const errors: RunError[] = [];
  for (const file of files) {
    const path = join(dir, file);
    if (findSecret(await readFile(path, 'latin1'), token) || findSecret(await readFile(path, 'utf8'), token)) {
      await rm(path, { force: true });
      errors.push(leakError(join(ALLURE_DIR, file)));
    }
  }
  return errors;
}

/**
 * Writes every view of the report, refusing any artifact that would carry the token.
 * A refused artifact becomes an error in the report (and so exit 2).
 */
export async function writeReports(report: Report, outDir: string, token: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  report.errors.push(...(await scrubAllure(outDir, token)));

  const schemaCheck = validator('report');
  const matchesSchema: boolean = schemaCheck(structuredClone(report));
  if (!matchesSchema) {
    report.errors.push({
      code: 'HARNESS_INTERNAL',
      message: `report.json does not match schemas/report.schema.json: ${formatSchemaErrors(schemaCheck.errors)}`,
      hint: 'This is a bug in the suite; please report it',
      party: 'suite',
    });
  }

  const views: [string, (report: Report) => string][] = [
    ['report.json', (final) => `${JSON.stringify(final, null, 2)}\n`],
    ['report.md', renderMarkdown],
    ['junit.xml', renderJunit],
  ];
  const leaking = views.filter(([, render]) => findSecret(render(report), token));
  report.errors.push(...leaking.map(([name]) => leakError(name)));
  settleOutcome(report);

  const written: string[] = [];
  for (const [name, render] of views) {
    if (leaking.some(([leaked]) => leaked === name)) continue;
    await writeFile(join(outDir, name), render(report));
    written.push(join(outDir, name));
  }
  written.push(join(outDir, ALLURE_DIR));
  return written;
}
