import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';

const TOKEN = 'diff-token-8b2a55';
const { inProcess, tempFolder } = fileResources();
let dir = '';
let conformant: Report;
let broken: Report;

beforeAll(async () => {
  dir = await tempFolder('conformance-diff-');
  const good = await startReferenceServer({ token: TOKEN });
  const bad = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  const [goodRun, badRun] = await Promise.all([
    inProcess.run(['--base-url', good.url, '--token', TOKEN]),
    inProcess.run(['--base-url', bad.url, '--token', TOKEN]),
  ]);
  conformant = JSON.parse(await readFile(join(goodRun.outDir, 'report.json'), 'utf8')) as Report;
  broken = JSON.parse(await readFile(join(badRun.outDir, 'report.json'), 'utf8')) as Report;
  await Promise.all([good.close(), bad.close(), goodRun.cleanup(), badRun.cleanup()]);
});

async function diff(before: Report, after: Report): Promise<{ code: number; stdout: string }> {
  const [old, now] = [join(dir, 'old.json'), join(dir, 'new.json')];
  await writeFile(old, JSON.stringify(before));
  await writeFile(now, JSON.stringify(after));
  return inProcess.exec(['diff', old, now]);
}

test('a requirement that passed and fails now is a regression: exit 1', async () => {
  const run = await diff(conformant, broken);
  expect(run.code).toBe(1);
  expect(run.stdout).toContain('Regressions (1):\n  STATUS-COLOUR (MUST): pass -> fail');
  expect(run.stdout.trim().split('\n').at(-1)).toBe('1 regression(s), 0 fix(es), 0 changed observation(s)');
});

test('the other way round it is a fix: exit 0', async () => {
  const run = await diff(broken, conformant);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Fixes (1):\n  STATUS-COLOUR (MUST): fail -> pass');
});

test('a changed observation is named with what was seen before and now', async () => {
  const changed = structuredClone(conformant);
  const unknownId = changed.requirements.find((result) => result.id === 'STATUS-UNKNOWN-ID');
  const observation = unknownId?.checks.find((check) => check.verdict === 'info');
  if (!observation) throw new Error('the conformant report has no STATUS-UNKNOWN-ID observation');
  const was = observation.actual;
  observation.actual = 'HTTP 500 (text/html) <h1>oops</h1>';
  const run = await diff(conformant, changed);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Changed observations (1):\n  STATUS-UNKNOWN-ID:');
  expect(run.stdout).toContain(`was: ${observation.description}: ${was}`);
  expect(run.stdout).toContain(`now: ${observation.description}: HTTP 500 (text/html) <h1>oops</h1>`);
});

test('two identical reports differ in nothing', async () => {
  const run = await diff(conformant, conformant);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe('0 regression(s), 0 fix(es), 0 changed observation(s)');
});
