import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { nightlyRuns } from './helpers/nightly-runs.js';

let work = '';
let history = '';
let reports: Report[] = [];
const resources = fileResources();
const { inProcess } = resources;

beforeAll(async () => {
  ({ work, reports } = await nightlyRuns(resources));
  history = join(work, 'history-out');
});

test('history DIR --out OUT writes one history.html, leaves out an unreadable file with a line saying why', async () => {
  const result = await inProcess.exec(['history', join(work, 'runs'), '--out', history]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^History of 4 runs of 2 target\(s\): .*history\.html$/m);
  expect(result.stderr).toMatch(/^Left out broken-file\/report\.json: /m);
  const page = await readFile(join(history, 'history.html'), 'utf8');
  // Self-contained: no script, nothing fetched.
  expect(page).not.toMatch(/<script|<link|src="http|href="http/);
  expect(page).toContain("default-src 'none'");
});

test('history with no report under the folder, or no folder, exits 2 with one line', async () => {
  const empty = await mkdtemp(join(work, 'empty-'));
  const none = await inProcess.exec(['history', empty, '--out', join(work, 'none')]);
  expect(none.code).toBe(2);
  expect(none.stderr.trim()).toMatch(/^CONFIG_INVALID: no readable report\.json under .*\. Point history at/);
  const missing = await inProcess.exec(['history', join(work, 'no-such-folder'), '--out', join(work, 'none')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr.trim().split('\n')).toHaveLength(1);
});

test('every run writes a shields-style badge.svg: "conformance | N/N MUST" in the verdict colour', async () => {
  const badge = await readFile(join(work, 'reference-badge.svg'), 'utf8');
  const must = reports[0]?.requirements.filter((result) => result.level === 'MUST').length ?? 0;
  expect(badge).toContain(`aria-label="conformance: ${must}/${must} MUST (conformant)"`);
  expect(badge).toContain(`>${must}/${must} MUST</text>`);
  expect(badge).toContain('fill="#2e7d32"');
  expect(badge.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
});

test('a run that reached no verdict has a badge that says so, in its own colour', async () => {
  const { renderBadge } = await import('../src/report/views/badge.js');
  const report = reports[1];
  if (!report) throw new Error('no report');
  const must = report.requirements.filter((result) => result.level === 'MUST');
  const passed = must.filter((result) => result.verdict === 'pass').length;
  expect(passed).toBeLessThan(must.length);
  const failing = renderBadge(report);
  expect(failing).toContain(`>${passed}/${must.length} MUST</text>`);
  expect(failing).toContain('fill="#c62828"');
  const inconclusive = renderBadge({ ...report, verdict: 'inconclusive', exitCode: 2 });
  expect(inconclusive).toContain('>no verdict</text>');
  expect(inconclusive).toContain('fill="#6a1b9a"');
});
