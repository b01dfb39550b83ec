import { appendFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../assertions/schemas.js';
import { findLeak, secretForms } from '../harness/redact.js';
import { escapeHtml, renderHtml } from './html.js';
import { sealReport } from './integrity.js';
import { escapeXml, renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { settleOutcome } from './build.js';
import type { Report, RunError } from './types.js';

export const ALLURE_DIR = 'allure-results';
export const COMPARISON_FILE = 'comparison.json';
/** Where a differential run writes the reports of its --compare-to server. */
export const COMPARE_DIR = 'compare-to';
/** The suite's own outputs in --out; nothing else there is touched. */
export const OWN_OUTPUTS = ['report.json', 'report.md', 'report.html', 'junit.xml', ALLURE_DIR, COMPARISON_FILE, COMPARE_DIR];

export async function clearOwnOutputs(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all(OWN_OUTPUTS.map((name) => rm(join(outDir, name), { recursive: true, force: true })));
}

export function leakError(artifact: string, secret: string): RunError {
  return {
    code: 'HARNESS_SECRET_LEAK',
    message: `${artifact} would have contained ${secret}, so it was not written`,
    hint: 'This is a bug in the suite; report it without the file',
    party: 'suite',
  };
}

/** Drops any Allure result that holds a secret; returns an error per file dropped. */
async function scrubAllure(outDir: string, token: string): Promise<RunError[]> {
  const dir = join(outDir, ALLURE_DIR);
  const files = await readdir(dir).catch(() => [] as string[]);
  const errors: RunError[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const secret = findLeak(await readFile(path, 'latin1'), token) ?? findLeak(await readFile(path, 'utf8'), token);
    if (secret) {
      await rm(path, { force: true });
      errors.push(leakError(join(ALLURE_DIR, file), secret));
    }
  }
  return errors;
}

/**
 * Writes every view of the report, refusing any artifact that would carry the token or an Authorization value.
 * A refused artifact becomes an error in the report (and so exit 2).
 * The Markdown view is also appended to stepSummary, the file GitHub Actions shows on the job's page.
 */
export async function writeReports(
  report: Report,
  outDir: string,
  token: string,
  stepSummary: string | undefined = process.env.GITHUB_STEP_SUMMARY,
): Promise<string[]> {
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

  // Each view with the way it writes text: a token holding & or " is looked for as the view would show it.
  const views: [string, (report: Report) => string, (text: string) => string][] = [
    ['report.json', (final) => `${JSON.stringify(final, null, 2)}\n`, (text) => JSON.stringify(text).slice(1, -1)],
    ['report.md', renderMarkdown, (text) => text.replaceAll('|', '\\|')],
    ['report.html', renderHtml, escapeHtml],
    ['junit.xml', renderJunit, escapeXml],
  ];
  const leaking = views.flatMap(([name, render, encode]) => {
    const text = render(report);
    const escaped = secretForms(token).some((form) => !text.includes(form) && text.includes(encode(form)));
    const secret = findLeak(text, token) ?? (escaped ? 'the API token' : undefined);
    return secret ? [{ name, secret }] : [];
  });
  report.errors.push(...leaking.map(({ name, secret }) => leakError(name, secret)));
  settleOutcome(report);
  sealReport(report);

  const written: string[] = [];
  for (const [name, render] of views) {
    if (leaking.some((leak) => leak.name === name)) continue;
    await writeFile(join(outDir, name), render(report));
    written.push(join(outDir, name));
  }
  written.push(join(outDir, ALLURE_DIR));
  if (stepSummary && !leaking.some((leak) => leak.name === 'report.md')) {
    await appendFile(stepSummary, `${renderMarkdown(report)}\n`);
    written.push(stepSummary);
  }
  return written;
}
