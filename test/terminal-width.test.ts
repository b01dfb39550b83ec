import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { cli } from '../src/cli/cli.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fitWidth, wrapAtWords } from '../src/report/views/wrap.js';
import { SAFETY_NET_MS, removeFolder } from './helpers/safety-net.js';

const TOKEN = 'narrow-terminal-token-61';
const WIDTH = 60;
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map(removeFolder));
});

/**
 * A run at a terminal of 60 columns, stdout and stderr alike, keeping each line and each redraw of the progress line;
 * with a judge of its own, as the CLI's, whose every scenario redraws the line.
 */
async function narrowRun(args: string[]): Promise<{ code: number; lines: string[]; redraws: string[] }> {
  const folder = await mkdtemp(join(tmpdir(), 'conformance-narrow-'));
  folders.push(folder);
  const lines: string[] = [];
  const redraws: string[] = [];
  const code = await cli([...args, '--reports', 'json', '--out', join(folder, 'out')], {
    log: (line) => lines.push(...line.split('\n')),
    error: (line) => lines.push(...line.split('\n')),
    progress: (text) => redraws.push(text),
    colour: { stdout: false, stderr: true },
    columns: { stdout: WIDTH, stderr: WIDTH },
    env: { CONFORMANCE_TIMEOUT_MS: String(SAFETY_NET_MS), CONFORMANCE_DEADLINE_MS: String(SAFETY_NET_MS) },
    dotenvPath: join(folder, '.env'),
    startedAt: new Date(),
  });
  return { code, lines, redraws };
}

/** The progress line as the terminal shows it: what follows the carriage return and the clearing of the line. */
const shownOf = (redraw: string): string => redraw.replace('\r\u001b[2K', '');

test.each([
  ['a conformant server', [] as string[], 0],
  ['a server that breaks several rules', ['colour-missing', 'status-ok', 'authorization-stripped'], 1],
])('at 60 columns, %s: the progress line is redrawn within the width, the verdict wrapped at words', async (_name, variants, exitCode) => {
  const server = await startReferenceServer({ token: TOKEN, variants });
  try {
    const run = await narrowRun(['--base-url', server.url, '--token', TOKEN]);
    expect(run.code).toBe(exitCode);
    const shown = run.redraws.map(shownOf).filter((text) => text !== '');
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((text) => text.length >= WIDTH)).toEqual([]);
    const verdictAt = run.lines.findIndex((line) => line.startsWith('Verdict for '));
    const verdict = run.lines.slice(
      verdictAt,
      run.lines.findIndex((line, index) => index > verdictAt && line.startsWith('Reports: ')),
    );
    expect(verdict.length).toBeGreaterThan(1);
    expect(verdict.filter((line) => line.length > WIDTH && line.includes(' '))).toEqual([]);
  } finally {
    await server.close();
  }
});

test('wrapping cuts at spaces only, keeps every word, and leaves a word longer than the width whole', () => {
  const line = 'No verdict: connection refused for GET https://help.example.com/support/api/ticket/status/1 (HARNESS_UNREACHABLE).';
  const wrapped = wrapAtWords(line, 30);
  expect(wrapped.join(' ')).toBe(line);
  expect(wrapped.filter((part) => part.length > 30)).toEqual(['https://help.example.com/support/api/ticket/status/1']);
  expect(fitWidth('x'.repeat(80), WIDTH)).toHaveLength(WIDTH - 1);
  expect(fitWidth('short', WIDTH)).toBe('short');
  expect(fitWidth('x'.repeat(80), undefined)).toHaveLength(80);
  // A pseudo-terminal nobody sized reports 0 columns: of no known size, not narrow.
  expect(fitWidth('x'.repeat(80), 0)).toHaveLength(80);
});
