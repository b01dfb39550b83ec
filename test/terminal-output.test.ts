import { expect, test } from 'vitest';
import { colourWanted } from '../src/report/views/colour.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { runCli } from './helpers/run-cli.js';

const TOKEN = 'terminal-token-0c3d9e';
const ANSI = /\u001b\[/;
const { inProcess } = fileResources();

test('--quiet prints the verdict line alone: target, verdict, next step, counts, and where the configuration lines are', async () => {
  const server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--quiet', '--reports', 'json,md']);
  try {
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Verdict for ${server.url}/: Not conformant: .*the token is right, so the Authorization header is most likely stripped.* Next: On Apache: `,
      ),
    );
    expect(lines[0]).toMatch(/\(0 passed, 4 failed, \d+ skipped, 3 info\) The configuration lines to change are in .*report\.md\.$/);
    expect(run.code).toBe(1);
  } finally {
    await Promise.all([server.close(), run.cleanup()]);
  }
});

test('a refused token: the skips it causes are one line under that cause, and checks with the same answer are one failure', async () => {
  const server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
  try {
    const lines = run.stdout.trim().split('\n');
    const skipped = (run.report?.requirements ?? []).filter((result) => result.verdict === 'skip').map((result) => result.id);
    expect(skipped.length).toBeGreaterThan(20);
    const folded = lines.filter((line) => line.includes('requirements not judged, because'));
    expect(folded).toEqual([
      `  SKIP   ${skipped.length} requirements not judged, because the valid token was refused and no request to the API's paths was served (see AUTH-TOKEN-ACCEPTED), so there was nothing to judge them on: ${skipped.join(', ')}`,
    ]);
    expect(lines.filter((line) => line.includes('skipped: '))).toEqual([]);
    // Six checks of three requirements got the one refusal: one numbered entry, the answer shown once.
    expect(lines).toContain('1. AUTH-TOKEN-ACCEPTED, AUTH-PASSWORD-IGNORED, SELFSERVICE-ACCEPTED: 6 checks got the same answer');
    expect(lines.filter((line) => line.startsWith('  Actual:   HTTP 401 (application/json)'))).toHaveLength(1);
    expect(lines.filter((line) => /^\d+\. /.test(line))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(new RegExp(`^0 passed, 4 failed, ${skipped.length} skipped, 3 info in [\\d.]+ s$`));
    expect(lines.length).toBeLessThan(80);
  } finally {
    await Promise.all([server.close(), run.cleanup()]);
  }
});

test('--verbose lists every request with its credentials in words and never the token; piped output has no colour', async () => {
  const server = await startReferenceServer({ token: TOKEN });
  // The real CLI: colour is decided from its own stdout (a pipe here) and environment; in this process the caller decides.
  // Nothing but the pipe asks for plain output: no NO_COLOR, no CI, a terminal type that takes colour.
  const run = await runCli(['--base-url', server.url, '--token', TOKEN, '--verbose'], {
    NO_COLOR: undefined,
    CI: undefined,
    TERM: 'xterm-256color',
  });
  try {
    const requestLines = run.stdout.split('\n').filter((line) => line.startsWith('  GET '));
    expect(requestLines).toHaveLength(24);
    expect(requestLines).toContain(
      `  GET ${server.url}/api/ticket/status/1  Authorization: Basic <redacted> (a token that is not valid)  ->  HTTP 401`,
    );
    expect(run.stdout).not.toContain(TOKEN);
    expect(run.stdout).not.toMatch(ANSI);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^30 passed, 0 failed, 0 skipped, 7 info in [\d.]+ s$/);
  } finally {
    await Promise.all([server.close(), run.cleanup()]);
  }
});

test('--quiet and --verbose together are a configuration error', async () => {
  const run = await inProcess.run(['--quiet', '--verbose']);
  try {
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('CONFIG_INVALID: --quiet and --verbose were both given. Pass one of them');
  } finally {
    await run.cleanup();
  }
});

test('colour only at a terminal, and never with NO_COLOR, CI=true or TERM=dumb', () => {
  const tty = { isTTY: true } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as NodeJS.WriteStream;
  expect(colourWanted(tty, {})).toBe(true);
  expect(colourWanted(pipe, {})).toBe(false);
  expect(colourWanted(tty, { NO_COLOR: '' })).toBe(false);
  expect(colourWanted(tty, { CI: 'true' })).toBe(false);
  expect(colourWanted(tty, { TERM: 'dumb' })).toBe(false);
});
