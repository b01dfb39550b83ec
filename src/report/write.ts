import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { SecretScanner } from '../secrets/scanner.js';
import { ALLURE_DIR, COMPARISON_FILE } from './model/outputs.js';
import {
  appendArtifact,
  artifactScanner,
  clearOwnOutputs,
  probeAppend,
  putArtifacts,
  screenArtifacts,
  type Artifact,
  type PutOptions,
  type ScreenedArtifact,
  type View,
} from '../files/artifacts.js';
import { reportJson } from './model/integrity.js';
import type { Report, RunWarning } from './model/types.js';
import type { History } from './model/history.js';
import type { Matrix } from './matrix/types.js';
import type { Comparison } from './comparison/types.js';
import { formatSchemaErrors, validator } from '../validators/schemas.js';
import { REPORT_KINDS, type ReportKind } from '../config/reports.js';
import { HarnessError, systemReason, type RunError } from '../errors.js';

/**
 * The one writer of every view the suite writes: a run's reports, a matrix's files, the comparison of --compare-to and
 * history.html. Each file is rendered from a model built before, screened for every secret the command knows, and
 * written through the artifact writer (src/files/artifacts.ts).
 */

/**
 * Whether the job summary can take the Markdown view, found before the report is built: a warning of the environment
 * if not, which every view shows.
 */
export async function stepSummaryProblem(path: string): Promise<RunWarning | undefined> {
  try {
    await probeAppend(path);
    return undefined;
  } catch (error) {
    return {
      code: 'STEP_SUMMARY_NOT_WRITTEN',
      message: `the job summary could not be appended to GITHUB_STEP_SUMMARY (${path}): ${systemReason(error)}; the reports in the output folder are complete. This is a problem of the environment, not of the target or the suite`,
    };
  }
}

export interface WriteOptions {
  /** A file the Markdown view is appended to (GitHub Actions' GITHUB_STEP_SUMMARY), found able to take it. */
  stepSummary?: string;
  /** The reports to write (--reports; a matrix leaves allure-results/ out of each target's folder); report.json always. */
  reports?: readonly ReportKind[];
  /** The CI's variables, for the job Allure's executor links to. */
  env?: Record<string, string | undefined>;
  /** The folder was made by this command, and holds only what it put there and listed (see PutOptions). */
  newFolder?: boolean;
  /** Whether the files go on the folder's list (see PutOptions). */
  listed?: boolean;
  /** Files screened already (the recording), written with the views: one folder made and one list written for all. */
  besides?: readonly ScreenedArtifact[];
}

/**
 * A built report or matrix holds no secret (its build screened it), so a view that does is a fault of its renderer: it
 * is not written, and the writing ends in that error once everything else is on disk.
 */
function endIfRefused(refused: readonly RunError[]): void {
  if (refused.length === 0) return;
  throw new HarnessError(
    'HARNESS_SECRET_LEAK',
    refused.map((error) => error.message).join('; '),
    'This is a bug in the suite; please report it with the command line (never the token)',
    'suite',
  );
}

/**
 * Each view's file and its renderer, loaded only when the view is chosen: a run that asks for report.json alone loads
 * none of the others.
 */
const VIEWS: [ReportKind, string, () => Promise<(report: Report) => Artifact['content']>][] = [
  // The text the build made, sealed and screened.
  ['json', 'report.json', () => Promise.resolve(reportJson)],
  ['md', 'report.md', async () => (await import('./views/markdown.js')).renderMarkdown],
  ['html', 'report.html', async () => (await import('./views/html.js')).renderHtml],
  ['junit', 'junit.xml', async () => (await import('./views/junit.js')).renderJunit],
  ['ctrf', 'ctrf.json', async () => (await import('./views/ctrf.js')).renderCtrf],
  ['badge', 'badge.svg', async () => (await import('./views/badge.js')).renderBadge],
];
const loadAllure = () => import('./views/allure.js');

/**
 * Starts loading the renderers of the reports a run will write, so that they are loaded by the time the report is:
 * a run calls it while its recording is judged in the other thread. Loading twice costs nothing (modules load once).
 */
export function loadViews(reports: readonly ReportKind[]): void {
  for (const [kind, , load] of VIEWS) if (reports.includes(kind)) load().catch(() => undefined);
  if (reports.includes('allure')) loadAllure().catch(() => undefined);
}

/**
 * Writes every view of the report through the artifact writer, changing nothing in it: each view is rendered once from
 * it and scanned once; the Markdown view is also appended to stepSummary, the file GitHub Actions shows on the job's
 * page. Returns the paths written, the views' first.
 */
export async function writeReports(
  report: Report,
  outDir: string,
  scanner: SecretScanner,
  { stepSummary, reports = REPORT_KINDS, env = {}, newFolder = false, listed = true, besides = [] }: WriteOptions = {},
): Promise<string[]> {
  // report.json is written whatever was chosen; the Markdown view is rendered for the job summary even when not written.
  const chosen = (kind: ReportKind): boolean => kind === 'json' || reports.includes(kind) || (kind === 'md' && stepSummary !== undefined);
  const renderers = await Promise.all(
    VIEWS.filter(([kind]) => chosen(kind)).map(async ([, name, load]): Promise<View<Report>> => [name, await load()]),
  );
  const allure = reports.includes('allure');
  const files = [
    ...renderers.map(([name, render]) => ({ name, content: render(report) })),
    ...(allure
      ? (await loadAllure()).allureFiles(report, env).map(({ name, content }) => ({ name: `${ALLURE_DIR}/${name}`, content }))
      : []),
  ];
  const rendered = screenArtifacts(files, scanner);
  const markdown = rendered.passed.find(({ name }) => name === 'report.md');
  if (stepSummary && markdown) await appendArtifact(stepSummary, markdown, '\n');

  const views = rendered.passed.filter(({ name }) => name !== 'report.md' || reports.includes('md'));
  const written = await putArtifacts(outDir, [...views, ...besides], { newFolder, listed });
  endIfRefused(rendered.refused);
  const shown = written.slice(0, views.length).filter((path) => !path.startsWith(join(outDir, ALLURE_DIR, sep)));
  if (allure) shown.push(join(outDir, ALLURE_DIR));
  if (stepSummary && markdown) shown.push(stepSummary);
  shown.push(...written.slice(views.length));
  return shown;
}

export const MATRIX_OUTPUTS = ['matrix.json', 'matrix.md', 'matrix.html'];

/**
 * Writes matrix.json, matrix.md and matrix.html from the matrix as built, changing nothing: each view is rendered once
 * and scanned once for every form of every token together. targetOutputs: the files and folders of the targets written
 * into folders made new, which go on the folder's list with the matrix's own files.
 */
export async function writeMatrix(
  matrix: Matrix,
  outDir: string,
  scanner: SecretScanner,
  targetOutputs?: PutOptions['alsoListed'],
): Promise<string[]> {
  const [{ renderMatrixHtml }, { renderMatrixMarkdown }] = await Promise.all([import('./matrix/html.js'), import('./matrix/markdown.js')]);
  await clearOwnOutputs(outDir);
  // The page links each target's report.html where the target's run wrote one; the page itself reads no disk.
  const pages = new Set(
    matrix.targets.filter((target) => existsSync(join(outDir, target.reportDir, 'report.html'))).map((target) => target.reportDir),
  );
  const rendered = screenArtifacts(
    [
      { name: 'matrix.json', content: `${JSON.stringify(matrix, null, 2)}\n` },
      { name: 'matrix.md', content: renderMatrixMarkdown(matrix) },
      { name: 'matrix.html', content: renderMatrixHtml(matrix, pages) },
    ],
    scanner,
  );
  const written = await putArtifacts(outDir, rendered.passed, targetOutputs ? { alsoListed: targetOutputs } : {});
  endIfRefused(rendered.refused);
  return written;
}

/**
 * Writes comparison.json and adds the comparison to the target's report.md, refusing whatever would carry either
 * server's token (the scanner knows both). A refused artifact comes back as an error (and so exit 2).
 */
export async function writeComparison(
  comparison: Comparison,
  outDir: string,
  scanner: SecretScanner,
): Promise<{ written: string[]; errors: RunError[] }> {
  const { renderComparisonMarkdown } = await import('./comparison/views.js');
  const schemaCheck = validator('comparison');
  if (!schemaCheck(structuredClone(comparison))) {
    throw new HarnessError(
      'HARNESS_INTERNAL',
      `comparison.json does not match schemas/comparison.schema.json: ${formatSchemaErrors(schemaCheck.errors)}`,
      'This is a bug in the suite; please report it',
    );
  }
  const json = screenArtifacts([{ name: COMPARISON_FILE, content: `${JSON.stringify(comparison, null, 2)}\n` }], scanner);
  const written = json.passed.length > 0 ? await putArtifacts(outDir, json.passed) : [];
  const section = screenArtifacts(
    [{ name: 'report.md', content: renderComparisonMarkdown(comparison) }],
    scanner,
    (name) => `the comparison section of ${name}`,
  );
  const markdown = join(outDir, 'report.md');
  // A report.md refused for a secret is not there to take the section.
  for (const file of section.passed) if (existsSync(markdown)) await appendArtifact(markdown, file);
  return { written, errors: [...json.refused, ...section.refused] };
}

/**
 * Writes history.html, rendered from a history built from the runs under source, through the same screen and files as
 * every view of a run. No token is known here, but a report that carried an Authorization value still keeps the page
 * from being written. The page stays off the folder's list, so a later run into the same folder leaves it alone.
 */
export async function writeHistory(history: History, source: string, outDir: string, generatedAt = new Date()): Promise<string> {
  const { renderHistoryHtml } = await import('./views/history-html.js');
  const rendered = screenArtifacts(
    [{ name: 'history.html', content: renderHistoryHtml(history, source, generatedAt) }],
    artifactScanner([]),
  );
  const [leak] = rendered.refused;
  if (leak) throw new HarnessError(leak.code, leak.message, leak.hint, leak.party);
  const [written = ''] = await putArtifacts(outDir, rendered.passed, { listed: false });
  return written;
}
