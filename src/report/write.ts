import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../validators/schemas.js';
import { createSecretScanner, type SecretScanner } from '../http/redact.js';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import { allureFiles, screenedWriter, writeAllureResults } from './views/allure.js';
import { ALLURE_DIR, recordOwnOutputs } from './model/outputs.js';
import { renderHtml } from './views/html.js';
import { renderBadge } from './views/badge.js';
import { renderCtrf } from './views/ctrf.js';
import { sealReport } from './model/integrity.js';
import { renderJunit } from './views/junit.js';
import { renderMarkdown } from './views/markdown.js';
import { settleOutcome } from './model/build.js';
import type { Report, RunWarning } from './model/types.js';
import { systemReason, leakError } from '../errors.js';
import type { RunError } from '../errors.js';

/** Writes the Allure results through Allure's own writer, leaving out any file that would hold a secret; an error per file left out. */
async function writeAllure(
  report: Report,
  outDir: string,
  scanner: SecretScanner,
): Promise<{ errors: RunError[]; files: string[]; made?: string }> {
  const dir = join(outDir, ALLURE_DIR);
  const made = await mkdir(dir, { recursive: true });
  const refused = new Set<string>();
  const errors: RunError[] = [];
  const names = allureFiles(report, process.env).map(({ name, content }) => {
    const secret = scanner.find(content);
    if (secret) {
      refused.add(name);
      errors.push(leakError(join(ALLURE_DIR, name), secret));
    }
    return name;
  });
  writeAllureResults(
    report,
    screenedWriter(new FileSystemWriter({ resultsDir: dir }), (name) => !refused.has(name)),
    process.env,
  );
  const files = names.filter((name) => !refused.has(name)).map((name) => join(dir, name));
  return { errors, files, ...(made ? { made: dir } : {}) };
}

/** Appends the Markdown view to the job summary; a path that cannot take it is a problem of the environment, told as a warning. */
async function appendStepSummary(path: string, markdown: string): Promise<RunWarning | undefined> {
  try {
    await appendFile(path, `${markdown}\n`);
    return undefined;
  } catch (error) {
    return {
      code: 'STEP_SUMMARY_NOT_WRITTEN',
      message: `the job summary could not be appended to GITHUB_STEP_SUMMARY (${path}): ${systemReason(error)}; the reports in the output folder are complete. This is a problem of the environment, not of the target or the suite`,
    };
  }
}

export interface WriteOptions {
  /** A file the Markdown view is appended to (GitHub Actions' GITHUB_STEP_SUMMARY). */
  stepSummary?: string;
  /** Whether to write allure-results/ (a matrix leaves it out of each target's folder). */
  allure?: boolean;
  /** JSON files written beside the reports (the recording), held to the same rule. */
  jsonFiles?: { name: string; content: string }[];
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
  { stepSummary, allure = true, jsonFiles = [] }: WriteOptions = {},
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });

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

  // The scanner reads JSON, markdown, HTML and XML escapes: a token holding & or " is found as each view writes it.
  const scanner = createSecretScanner([token]);
  const views: [string, (report: Report) => string][] = [
    ['report.json', (final) => `${JSON.stringify(final, null, 2)}\n`],
    ['report.md', renderMarkdown],
    ['report.html', renderHtml],
    ['junit.xml', renderJunit],
    ['ctrf.json', renderCtrf],
    ['badge.svg', renderBadge],
  ];
  // Each view is rendered once, from the sealed report, and scanned. Only an error found on the way (a refused view,
  // an Allure file left out), which every view must then show, makes the views render again.
  const seal = (): void => {
    settleOutcome(report);
    sealReport(report);
  };
  seal();
  let rendered = views.map(([name, render]) => ({ name, render, text: render(report) }));
  const leaking = rendered.flatMap(({ name, text }) => {
    const secret = scanner.find(text);
    return secret ? [{ name, secret }] : [];
  });
  const errorsBefore = report.errors.length;
  const safeFiles = jsonFiles.filter(({ name, content }) => {
    const secret = scanner.find(content);
    if (secret) leaking.push({ name, secret });
    return !secret;
  });
  report.errors.push(...leaking.map(({ name, secret }) => leakError(name, secret)));
  // Written before the report is sealed again, so an Allure file left out for a secret is an error in report.json too.
  const allureResults = allure ? await writeAllure(report, outDir, scanner) : undefined;
  report.errors.push(...(allureResults?.errors ?? []));
  const rerender = (): void => {
    seal();
    rendered = rendered
      .filter(({ name }) => !leaking.some((leak) => leak.name === name))
      .map((view) => ({ ...view, text: view.render(report) }));
  };
  if (report.errors.length > errorsBefore) rerender();
  // The job summary is written before the files, so a summary that could not be written is said in every view.
  const markdown = rendered.find(({ name }) => name === 'report.md');
  const summaryProblem = stepSummary && markdown ? await appendStepSummary(stepSummary, markdown.text) : undefined;
  if (summaryProblem) {
    (report.warnings ??= []).push(summaryProblem);
    rerender();
  }

  const written: string[] = [];
  for (const { name, text } of rendered) {
    await writeFile(join(outDir, name), text);
    written.push(join(outDir, name));
  }
  for (const { name, content } of safeFiles) {
    await writeFile(join(outDir, name), content);
    written.push(join(outDir, name));
  }
  await recordOwnOutputs(outDir, [...written, ...(allureResults?.files ?? [])], allureResults?.made ? [allureResults.made] : []);
  if (allureResults) written.push(join(outDir, ALLURE_DIR));
  if (stepSummary && markdown && !summaryProblem) written.push(stepSummary);
  return written;
}
