import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Report } from '../src/report/model/types.js';
import { fileResources } from './helpers/file-resources.js';
import { serveHttp } from './helpers/loopback-server.js';

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
  // Two runs of one target, as compare expects: the servers differ only by their port.
  broken.target.baseUrl = conformant.target.baseUrl;
  await Promise.all([good.close(), bad.close(), goodRun.cleanup(), badRun.cleanup()]);
});

async function compare(before: Report, after: Report, flags: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const [old, now] = [join(dir, 'old.json'), join(dir, 'new.json')];
  await writeFile(old, JSON.stringify(before));
  await writeFile(now, JSON.stringify(after));
  return inProcess.exec(['compare', old, now, ...flags]);
}

test('a requirement that passed and fails now is a regression: exit 1', async () => {
  const run = await compare(conformant, broken);
  expect(run.code).toBe(1);
  expect(run.stdout).toContain('Regressions (1):\n  STATUS-COLOUR (MUST): pass -> fail');
  expect(run.stdout.trim().split('\n').at(-1)).toBe('1 regression(s), 0 fix(es), 0 changed observation(s)');
});

test('the other way round it is a fix: exit 0', async () => {
  const run = await compare(broken, conformant);
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
  const run = await compare(conformant, changed);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Changed observations (1):\n  STATUS-UNKNOWN-ID:');
  expect(run.stdout).toContain(`was: ${observation.description}: ${was}`);
  expect(run.stdout).toContain(`now: ${observation.description}: HTTP 500 (text/html) <h1>oops</h1>`);
});

test('two identical reports differ in nothing', async () => {
  const run = await compare(conformant, conformant);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe('0 regression(s), 0 fix(es), 0 changed observation(s)');
});

test('diff, the name compare had before, still works', async () => {
  const [old, now] = [join(dir, 'old.json'), join(dir, 'new.json')];
  await writeFile(old, JSON.stringify(conformant));
  await writeFile(now, JSON.stringify(broken));
  const run = await inProcess.exec(['diff', old, now]);
  expect(run.code).toBe(1);
  expect(run.stdout).toContain('STATUS-COLOUR (MUST): pass -> fail');
});

test('reports of two different targets are refused in one line, unless asked for', async () => {
  const elsewhere = structuredClone(broken);
  elsewhere.target.baseUrl = 'https://other.example/helpdesk';
  const refused = await compare(conformant, elsewhere);
  expect(refused.code).toBe(2);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toContain('the two reports are of different targets');
  expect(refused.stderr).toContain('--compare-to');
  const asked = await compare(conformant, elsewhere, ['--different-targets']);
  expect(asked.code).toBe(1);
  expect(asked.stdout).toContain(`Different targets: ${conformant.target.baseUrl} (before) and https://other.example/helpdesk (after)`);
});

test('an observation no longer made has its "now" line, and a new one its "was" line', async () => {
  const gone = structuredClone(conformant);
  const result = gone.requirements.find((entry) => entry.checks.some((check) => check.verdict === 'info'));
  const observation = result?.checks.find((check) => check.verdict === 'info');
  if (!result || !observation) throw new Error('the conformant report has no observation');
  observation.verdict = 'pass';
  const dropped = await compare(conformant, gone);
  expect(dropped.stdout).toContain(`was: ${observation.description}: ${observation.actual ?? ''}\n    now: (not observed)`);
  const added = await compare(gone, conformant);
  expect(added.stdout).toContain(`was: (not observed)\n    now: ${observation.description}: ${observation.actual ?? ''}`);
});

test('requirements skipped for one cause of the newer run are told once: the cause, the count and the IDs on one line', async () => {
  const reference = await startReferenceServer({ token: TOKEN });
  // A WAF in front answering every request with its own block page; a maintenance page on every request.
  const waf = await serveHttp((_request, response) => {
    response.writeHead(403, { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '8f1e2d3c4b5a6978-FRA' });
    response.end('<!DOCTYPE html><title>Attention Required! | Cloudflare</title><h1>Sorry, you have been blocked</h1>');
  });
  const maintenance = await serveHttp((_request, response) => {
    response.writeHead(503, { 'content-type': 'text/html', 'retry-after': '3600' });
    response.end(
      '<html><head><title>Down for maintenance</title></head><body><h1>We are down for scheduled maintenance</h1><p>Back soon.</p></body></html>',
    );
  });
  const runs = await Promise.all([
    inProcess.run(['--base-url', reference.url, '--token', 'a-token-the-server-never-issued']),
    inProcess.run(['--base-url', waf.url, '--token', TOKEN]),
    inProcess.run(['--base-url', maintenance.url, '--token', TOKEN]),
  ]);
  try {
    for (const run of runs) {
      const after = JSON.parse(await readFile(join(run.outDir, 'report.json'), 'utf8')) as Report;
      after.target.baseUrl = conformant.target.baseUrl;
      const skipped = after.requirements.filter((result) => result.verdict === 'skip').map((result) => result.id);
      const compared = await compare(conformant, after);
      const lines = compared.stdout.split('\n');
      const heading = lines.findIndex((line) => line.startsWith('Not judged this time, all for one cause: '));
      expect(heading).toBeGreaterThanOrEqual(0);
      expect(lines[heading + 1]).toMatch(new RegExp(`^  ${skipped.length} requirement\\(s\\) .* -> skip: `));
      for (const id of skipped) expect(lines[heading + 1]).toContain(id);
      // Not one line per requirement: no "pass -> skip" line anywhere else.
      expect(lines.filter((line) => line.includes('-> skip'))).toHaveLength(1);
    }
  } finally {
    await Promise.all([reference.close(), waf.close(), maintenance.close(), ...runs.map((run) => run.cleanup())]);
  }
});
