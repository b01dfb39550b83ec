import { expect, test } from 'vitest';
import { colourWanted } from '../src/report/views/colour.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { runCli } from './helpers/run-cli.js';

const TOKEN = 'terminal-token-0c3d9e';
const ANSI = /\u001b\[/;
const { inProcess } = fileResources();

test('--quiet prints one line naming the target, the verdict and the next step, then the configuration lines it refers to', async () => {
  const server = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
  const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN, '--quiet']);
  try {
    const lines = run.stdout.trim().split('\n');
    const rule = lines.slice(1).join('\n');
    expect(rule).toContain("Config:   in the application's .htaccess");
    expect(rule).toContain('RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]');
    expect(lines[0]).toMatch(
      new RegExp(
        `^Verdict for ${server.url}/: Not conformant: .*strips the Authorization header.*or the token is wrong.* Next: To tell the two apart`,
      ),
    );
    expect(lines[0]).toMatch(/\(\d+ passed, 4 failed, \d+ skipped\)$/);
    expect(run.code).toBe(1);
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
    expect(requestLines).toHaveLength(21);
    expect(requestLines).toContain(
      `  GET ${server.url}/api/ticket/status/1  Authorization: Basic <redacted> (a token that is not valid)  ->  HTTP 401`,
    );
    expect(run.stdout).not.toContain(TOKEN);
    expect(run.stdout).not.toMatch(ANSI);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('30 passed, 0 failed, 0 skipped');
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
