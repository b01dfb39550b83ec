import { buildHistory } from '../../src/report/model/history.js';
import { createSecretScanner } from '../../src/secrets/scanner.js';
import { VERDICTS, type Report } from '../../src/report/model/types.js';
import { buildMatrix, matrixRow } from '../../src/report/matrix/build.js';
import { renderMatrixHtml } from '../../src/report/matrix/html.js';
import { renderMatrixMarkdown } from '../../src/report/matrix/markdown.js';
import { allureFiles } from '../../src/report/views/allure.js';
import { renderBadge } from '../../src/report/views/badge.js';
import { renderCtrf } from '../../src/report/views/ctrf.js';
import { renderHistoryHtml } from '../../src/report/views/history-html.js';
import { renderHtml } from '../../src/report/views/html.js';
import { renderJunit } from '../../src/report/views/junit.js';
import { renderMarkdown } from '../../src/report/views/markdown.js';
import { renderTerminal } from '../../src/report/views/terminal.js';
import { sampleReport } from './sample-report.js';

/** The sample report with requirements it left unjudged given the verdicts it lacks, so every view has every kind to name. */
export function everyVerdict(): Report {
  const report = sampleReport();
  const missing = VERDICTS.filter((verdict) => !report.requirements.some((result) => result.verdict === verdict));
  // One skip stays a skip.
  const spare = report.requirements.filter((result) => result.verdict === 'skip').slice(1);
  if (spare.length < missing.length) throw new Error('the sample report has too few skipped requirements to give every verdict');
  const requirements = report.requirements.map((result) => {
    const verdict = missing[spare.indexOf(result)];
    return verdict ? { ...result, verdict } : result;
  });
  return { ...report, requirements };
}

/** Every view of one report, and the pages of a matrix and a history made of it alone, by file (Allure's folder as one). */
export function everyView(report: Report): Record<string, string> {
  const matrix = buildMatrix(
    {
      suite: report.suite,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      durationMs: report.durationMs,
      targetConcurrency: 1,
      targets: [matrixRow(report, 'one', 0, 'targets/one')],
      errors: [],
    },
    createSecretScanner([]),
  );
  const history = buildHistory({ reports: [{ file: 'night-1/report.json', report }], skipped: [] });
  return {
    terminal: renderTerminal(report, [], { colour: true, verbose: false }),
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report),
    'junit.xml': renderJunit(report),
    'ctrf.json': renderCtrf(report),
    'allure-results': allureFiles(report)
      .map(({ name, content }) => `${name}\n${content}`)
      .join('\n'),
    'badge.svg': renderBadge(report),
    'matrix.md': renderMatrixMarkdown(matrix),
    'matrix.html': renderMatrixHtml(matrix, new Set()),
    'history.html': renderHistoryHtml(history, 'runs', new Date(0)),
  };
}
