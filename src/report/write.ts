import { join, sep } from 'node:path';
import { formatSchemaErrors, validator } from '../validators/schemas.js';
import type { SecretScanner } from '../http/redact.js';
import { allureFiles } from './views/allure.js';
import { ALLURE_DIR } from './model/outputs.js';
import {
  appendArtifact,
  putArtifacts,
  screenArtifacts,
  screenViews,
  type Artifact,
  type ScreenedArtifact,
  type View,
} from './artifacts.js';
import { renderHtml } from './views/html.js';
import { renderBadge } from './views/badge.js';
import { renderCtrf } from './views/ctrf.js';
import { sealReport } from './model/integrity.js';
import { renderJunit } from './views/junit.js';
import { renderMarkdown } from './views/markdown.js';
import { settleOutcome } from './model/build.js';
import type { Report, RunWarning } from './model/types.js';
import { systemReason, type RunError } from '../errors.js';

/** Appends the Markdown view to the job summary; a path that cannot take it is a problem of the environment, told as a warning. */
async function appendStepSummary(path: string, markdown: ScreenedArtifact): Promise<RunWarning | undefined> {
  try {
    await appendArtifact(path, markdown, '\n');
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
  jsonFiles?: Artifact[];
  /** The CI's variables, for the job Allure's executor links to. */
  env?: Record<string, string | undefined>;
}

/**
 * Writes every view of the report through the artifact writer, refusing any file that would carry a secret the scanner
 * knows (the run's token, in every form) or an Authorization value.
 * A refused artifact becomes an error in the report (and so exit 2).
 * The Markdown view is also appended to stepSummary, the file GitHub Actions shows on the job's page.
 */
export async function writeReports(
  report: Report,
  outDir: string,
  scanner: SecretScanner,
  { stepSummary, allure = true, jsonFiles = [], env = {} }: WriteOptions = {},
): Promise<string[]> {
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

  const views: View<Report>[] = [
    ['report.json', (final) => `${JSON.stringify(final, null, 2)}\n`],
    ['report.md', renderMarkdown],
    ['report.html', renderHtml],
    ['junit.xml', renderJunit],
    ['ctrf.json', renderCtrf],
    ['badge.svg', renderBadge],
  ];
  const settle = (): void => {
    settleOutcome(report);
    sealReport(report);
  };
  const refuse = (errors: RunError[]): void => {
    report.errors.push(...errors);
    settle();
  };
  // The files beside the reports come first: a refused one is an error every view must show.
  const json = screenArtifacts(jsonFiles, scanner);
  report.errors.push(...json.refused);
  settle();
  // Each view is rendered once, from the sealed report, and scanned once. Only an error found on the way (a refused
  // view, an Allure file left out, a job summary not written), which every view must then show, renders them again.
  let rendered = screenViews(report, views, scanner, refuse);
  const renderViews = (): void => {
    settle();
    rendered = screenViews(
      report,
      views.filter(([name]) => rendered.some((view) => view.name === name)),
      scanner,
      refuse,
    );
  };
  const allureResults = allure
    ? screenArtifacts(
        allureFiles(report, env).map(({ name, content }) => ({ name: `${ALLURE_DIR}/${name}`, content })),
        scanner,
      )
    : undefined;
  if (allureResults && allureResults.refused.length > 0) {
    report.errors.push(...allureResults.refused);
    renderViews();
  }
  // The job summary is written before the files, so a summary that could not be written is said in every view.
  const markdown = rendered.find(({ name }) => name === 'report.md');
  const summaryProblem = stepSummary && markdown ? await appendStepSummary(stepSummary, markdown) : undefined;
  if (summaryProblem) {
    (report.warnings ??= []).push(summaryProblem);
    renderViews();
  }

  const written = await putArtifacts(outDir, [...rendered, ...json.passed, ...(allureResults?.passed ?? [])]);
  const shown = written.filter((path) => !path.startsWith(join(outDir, ALLURE_DIR, sep)));
  if (allureResults) shown.push(join(outDir, ALLURE_DIR));
  if (stepSummary && markdown && !summaryProblem) shown.push(stepSummary);
  return shown;
}
