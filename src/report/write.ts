import { join, sep } from 'node:path';
import { formatSchemaErrors, validator } from '../validators/schemas.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { ALLURE_DIR } from './model/outputs.js';
import { appendArtifact, probeAppend, putArtifacts, screenArtifacts, type View } from '../files/artifacts.js';
import { sealReport } from './model/integrity.js';
import { settleOutcome } from './model/build.js';
import type { Report, RunWarning } from './model/types.js';
import { REPORT_KINDS, type ReportKind } from '../config/reports.js';
import { HarnessError, systemReason, type RunError } from '../errors.js';

/** Whether the job summary can take the Markdown view, found before anything is rendered: a warning of the environment if not. */
async function stepSummaryProblem(path: string): Promise<RunWarning | undefined> {
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
  /** A file the Markdown view is appended to (GitHub Actions' GITHUB_STEP_SUMMARY). */
  stepSummary?: string;
  /** The reports to write (--reports; a matrix leaves allure-results/ out of each target's folder); report.json always. */
  reports?: readonly ReportKind[];
  /** What writing the files beside the reports met (a recording refused for a secret): errors every view shows. */
  found?: RunError[];
  /** The CI's variables, for the job Allure's executor links to. */
  env?: Record<string, string | undefined>;
}

/**
 * The report with the scanner's secrets redacted, read as JSON text (a credential's name and its value are seen
 * together there, as in every view), else string by string.
 */
function redactedReport(report: Report, scanner: SecretScanner): Report {
  try {
    return JSON.parse(scanner.redact(JSON.stringify(report))) as Report;
  } catch {
    return redactedDeep(report, scanner.redact);
  }
}

function redactedDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactedDeep(item, redact)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactedDeep(item, redact)])) as T;
  }
  return value;
}

/**
 * The report as every view shows it, finished before any view is rendered: what the writing found (a file beside it
 * refused, the job summary unwritable, the report off its schema) is in it, and no secret the scanner knows is. A secret
 * in the model is a fault of the suite, since answers are redacted as they are received: it is redacted here and said.
 */
export function finishedReport(report: Report, scanner: SecretScanner, found: { errors: RunError[]; warnings: RunWarning[] }): Report {
  const schemaCheck = validator('report');
  const errors = [...report.errors, ...found.errors];
  if (!schemaCheck(structuredClone(report))) {
    errors.push({
      code: 'HARNESS_INTERNAL',
      message: `report.json does not match schemas/report.schema.json: ${formatSchemaErrors(schemaCheck.errors)}`,
      hint: 'This is a bug in the suite; please report it',
      party: 'suite',
    });
  }
  const secret = scanner.find(JSON.stringify(report));
  const leak: RunError[] = secret
    ? [
        {
          code: 'HARNESS_SECRET_LEAK',
          message: `the report would have contained ${secret}, so every view shows it redacted`,
          hint: 'This is a bug in the suite: answers are redacted as they are received; report it without the files',
          party: 'suite',
        },
      ]
    : [];
  const clean = secret ? redactedReport(report, scanner) : report;
  const warnings = [...(report.warnings ?? []), ...found.warnings];
  const finished: Report = { ...clean, errors: [...errors, ...leak], ...(warnings.length > 0 ? { warnings } : {}) };
  settleOutcome(finished);
  sealReport(finished);
  return finished;
}

/**
 * Each view's file and its renderer, loaded only when the view is chosen: a run that asks for report.json alone loads
 * none of the others.
 */
const VIEWS: [ReportKind, string, () => Promise<(report: Report) => string>][] = [
  ['json', 'report.json', () => Promise.resolve((final) => `${JSON.stringify(final, null, 2)}\n`)],
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
 * Writes every view of the report through the artifact writer. The report is finished first (see finishedReport), then
 * each view is rendered once from it and scanned once; the Markdown view is also appended to stepSummary, the file
 * GitHub Actions shows on the job's page. Returns the finished report and the paths written.
 */
export async function writeReports(
  report: Report,
  outDir: string,
  scanner: SecretScanner,
  { stepSummary, reports = REPORT_KINDS, found = [], env = {} }: WriteOptions = {},
): Promise<{ report: Report; written: string[] }> {
  // The job summary is probed first: what it meets is something every view must show.
  const summaryProblem = stepSummary ? await stepSummaryProblem(stepSummary) : undefined;
  const finished = finishedReport(report, scanner, { errors: found, warnings: summaryProblem ? [summaryProblem] : [] });

  // report.json is written whatever was chosen; the Markdown view is rendered for the job summary even when not written.
  const chosen = (kind: ReportKind): boolean => kind === 'json' || reports.includes(kind) || (kind === 'md' && stepSummary !== undefined);
  const views = await Promise.all(
    VIEWS.filter(([kind]) => chosen(kind)).map(async ([, name, load]): Promise<View<Report>> => [name, await load()]),
  );
  const allure = reports.includes('allure');
  const files = [
    ...views.map(([name, render]) => ({ name, content: render(finished) })),
    ...(allure
      ? (await loadAllure()).allureFiles(finished, env).map(({ name, content }) => ({ name: `${ALLURE_DIR}/${name}`, content }))
      : []),
  ];
  const rendered = screenArtifacts(files, scanner);
  const markdown = rendered.passed.find(({ name }) => name === 'report.md');
  if (stepSummary && markdown && !summaryProblem) await appendArtifact(stepSummary, markdown, '\n');

  const written = await putArtifacts(
    outDir,
    rendered.passed.filter(({ name }) => name !== 'report.md' || reports.includes('md')),
  );
  // The finished report holds no secret, so a view that does is a fault of its renderer: it is not written, and the
  // run ends in that error once everything else is on disk.
  if (rendered.refused.length > 0) {
    throw new HarnessError(
      'HARNESS_SECRET_LEAK',
      rendered.refused.map((error) => error.message).join('; '),
      'This is a bug in the suite; please report it with the command line (never the token)',
      'suite',
    );
  }
  const shown = written.filter((path) => !path.startsWith(join(outDir, ALLURE_DIR, sep)));
  if (allure) shown.push(join(outDir, ALLURE_DIR));
  if (stepSummary && markdown && !summaryProblem) shown.push(stepSummary);
  return { report: finished, written: shown };
}
