import { expect, test } from 'vitest';
import { importGraph, reachable } from './helpers/import-graph.js';
import { repoRoot } from './helpers/run-cli.js';

// The data flow the folders show: http sends, record keeps what was sent, judge reads the recording, report shows it.
const graph = importGraph(repoRoot, ['src', 'specs']);
const files = [...graph.keys()];
const under = (folder: string) => files.filter((file) => file.startsWith(`${folder}/`));

/** The import chains from the files under `from` that reach a file matching `forbidden`, one per offending file. */
function chainsInto(from: string[], forbidden: (file: string) => boolean): string[] {
  const offences: string[] = [];
  for (const start of from) {
    for (const [file, chain] of reachable(graph, start)) if (forbidden(file)) offences.push(chain.join(' → '));
  }
  return offences;
}

test('the folders exist as the README lays them out', () => {
  for (const folder of [
    'src/http',
    'src/record',
    'src/judge',
    'src/report/model',
    'src/report/views',
    'src/report/matrix',
    'src/report/comparison',
    'src/diagnosis',
  ]) {
    expect(under(folder).length, folder).toBeGreaterThan(0);
  }
});

test('record never imports the judge or the reports, not even through another module', () => {
  expect(chainsInto(under('src/record'), (file) => /^src\/(judge|report)\//.test(file))).toEqual([]);
});

test('the judge and the specs never import the HTTP client or anything else that sends', () => {
  expect(chainsInto([...under('src/judge'), ...under('specs')], (file) => file.startsWith('src/http/'))).toEqual([]);
});

test('http and the exchange vocabulary import nothing of the stages that use them', () => {
  expect(
    chainsInto([...under('src/http'), ...under('src/exchange')], (file) => /^src\/(record|judge|report|runner|diagnosis)\//.test(file)),
  ).toEqual([]);
});

test('only the judge imports Vitest: recording, reporting and the CLI work without it', () => {
  const importers = files.filter((file) => file.startsWith('src/') && (graph.get(file) ?? []).some((name) => /^vitest(\/|$)/.test(name)));
  expect(importers.filter((file) => !file.startsWith('src/judge/'))).toEqual([]);
  expect(importers.length).toBeGreaterThan(0);
});

test('what the package ships imports no build-time generator', () => {
  expect(chainsInto(under('src'), (file) => file.startsWith('scripts/'))).toEqual([]);
});
