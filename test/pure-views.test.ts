import fs from 'node:fs';
import { createSecretScanner } from '../src/secrets/scanner.js';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { expect, test } from 'vitest';
import { buildHistory } from '../src/report/model/history.js';
import type { Report } from '../src/report/model/types.js';
import { buildMatrix, matrixRow } from '../src/report/matrix/build.js';
import { renderMatrixHtml } from '../src/report/matrix/html.js';
import { renderHistoryHtml } from '../src/report/views/history-html.js';
import { everyVerdict, everyView } from './helpers/every-view.js';
import { sampleReport } from './helpers/sample-report.js';

// Views read no disk (the layer rule views-read-no-disk); these show they take what they show from the disk as input.

type Module = Record<string, unknown>;

/**
 * Runs render with every function of node:fs and node:fs/promises throwing, imports of them included (Node's
 * syncBuiltinESMExports carries the change to their named exports), and puts them back whatever happens.
 */
function withoutDisk<T>(render: () => T): T {
  const saved: [Module, string, unknown][] = [];
  for (const module of [fs, fsPromises] as unknown as Module[]) {
    for (const [name, value] of Object.entries(module)) {
      // Functions only, not the classes (Dirent, Stats) whose instances nothing here makes.
      if (typeof value !== 'function' || /^[A-Z]/.test(name)) continue;
      saved.push([module, name, value]);
      module[name] = () => {
        throw new Error(`a view called fs.${name}`);
      };
    }
  }
  syncBuiltinESMExports();
  try {
    return render();
  } finally {
    for (const [module, name, value] of saved) module[name] = value;
    syncBuiltinESMExports();
  }
}

test('every view renders with the disk out of reach, as it does with it', () => {
  const report = everyVerdict();
  const views = everyView(report);
  expect(withoutDisk(() => everyView(report))).toEqual(views);
  // The trap springs: a read of the disk inside it fails.
  expect(() => withoutDisk(() => fs.existsSync('report.html'))).toThrow('a view called fs.existsSync');
});

const night = (report: Report, day: number, baseUrl = report.target.baseUrl): Report => ({
  ...report,
  startedAt: `2030-01-0${day}T02:00:00.000Z`,
  target: { ...report.target, baseUrl },
});

test('the matrix page links the report.html of the targets it is told wrote one, and report.md of the others', () => {
  const report = sampleReport();
  const matrix = buildMatrix(
    {
      suite: report.suite,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      durationMs: 0,
      targetConcurrency: 1,
      targets: [matrixRow(report, 'one', 0, 'targets/one'), matrixRow(report, 'two', 1, 'targets/two')],
      errors: [],
    },
    createSecretScanner([]),
  );
  const links = (pages: ReadonlySet<string>): string[] =>
    [...renderMatrixHtml(matrix, pages).matchAll(/href="([^"]+)"/g)].map(([, href]) => href ?? '');
  // Neither folder exists anywhere: only what the caller says counts.
  expect(links(new Set(['targets/one']))).toEqual(['targets/one/report.html', 'targets/two/report.md']);
  expect(links(new Set(['targets/two']))).toEqual(['targets/one/report.md', 'targets/two/report.html']);
  expect(links(new Set())).toEqual(['targets/one/report.md', 'targets/two/report.md']);
});

test('a history is built from the reports handed to it, with no folder: by target, each in start order', () => {
  const report = sampleReport();
  const history = buildHistory({
    reports: [
      { file: 'b/report.json', report: night(report, 3) },
      { file: 'a/report.json', report: night(report, 1) },
      { file: 'c/report.json', report: night(report, 2, 'https://other.example/') },
    ],
    skipped: [{ file: 'broken/report.json', reason: 'not JSON' }],
  });
  expect(history.targets.map((target) => [target.baseUrl, target.runs.map((run) => run.file)])).toEqual([
    [report.target.baseUrl, ['a/report.json', 'b/report.json']],
    ['https://other.example/', ['c/report.json']],
  ]);
  const page = renderHistoryHtml(history, 'nightly', new Date('2030-02-01T00:00:00Z'));
  expect(page).toContain('3 runs of 2 targets, read from nightly.');
  expect(page).toContain('<code>broken/report.json</code> (not JSON)');
  expect(renderHistoryHtml(history, 'nightly', new Date('2030-02-01T00:00:00Z'))).toBe(page);
});
