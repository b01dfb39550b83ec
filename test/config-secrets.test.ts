import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { PER_TARGET, SETTINGS, type Setting, type SettingName } from '../src/config/settings.js';
import { loadTargets } from '../src/config/targets.js';
import { MAX_QUOTED_CHARS } from '../src/config/values.js';
import { cli } from '../src/cli/cli.js';
import { processIo, type CommandIo } from '../src/cli/io.js';
import { ConfigError } from '../src/errors.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { fileResources } from './helpers/file-resources.js';

const TOKEN = 'pasted-token-Qm73xV2k';
const PASSWORD = 'pasted-password-8hTz';
const PASSPHRASE = 'pasted-passphrase-Wd4r';
const scanner = createSecretScanner([TOKEN], [PASSWORD], [PASSPHRASE]);

const { tempFolder } = fileResources();
let dir = '';
beforeAll(async () => {
  dir = await tempFolder('conformance-config-secrets-');
});

/** Every setting given as text, by its flag and by its variable. */
const TEXT_SETTINGS = (Object.keys(SETTINGS) as SettingName[]).filter((name) => (SETTINGS[name] as Setting<unknown>).kind === 'string');

/** The one line a configuration gives, or undefined when it is accepted. */
function refusal(load: () => unknown): string | undefined {
  try {
    load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.oneLine();
  }
  return undefined;
}

/** The secrets given where they belong, on the command line. */
const secretFlags = ['--token', TOKEN, '--password', PASSWORD, '--key-passphrase', PASSPHRASE];
/** Values holding one of the secrets, as pasted into the wrong setting: alone, in a list, inside other text. */
const pasted = [TOKEN, PASSWORD, PASSPHRASE, `1,${TOKEN}`, `fr,${PASSWORD}`, `x${PASSPHRASE}x`, `./${TOKEN}.pem`];

describe('no message quotes a secret pasted into another setting', () => {
  test.each(TEXT_SETTINGS)('%s, by its flag and by its variable', (name) => {
    const spec: Setting<unknown> = SETTINGS[name];
    const lines: string[] = [];
    for (const value of pasted) {
      const byFlag = refusal(() =>
        loadConfig([...secretFlags, '--base-url', 'https://h.example', `--${spec.flag}`, value], {}, join(dir, '.env')),
      );
      if (byFlag !== undefined) lines.push(byFlag);
      if (spec.env === undefined) continue;
      const env = { CONFORMANCE_TOKEN: TOKEN, CONFORMANCE_PASSWORD: PASSWORD, CONFORMANCE_KEY_PASSPHRASE: PASSPHRASE, [spec.env]: value };
      const byVariable = refusal(() => loadConfig(['--base-url', 'https://h.example'], env, join(dir, '.env')));
      if (byVariable !== undefined) lines.push(byVariable);
    }
    for (const line of lines) expect(scanner.find(line), line).toBeUndefined();
  });

  test('a setting that refuses a value holding the token names it by what it holds', () => {
    const line = refusal(() => loadConfig([...secretFlags, '--status-id', TOKEN], {}, join(dir, '.env')));
    expect(line).toMatch(/^CONFIG_INVALID: --status-id \(not quoted: it holds the API token\) is not a whole number/);
  });

  test.each(PER_TARGET)('the targets file: %s', async (name) => {
    const lines: string[] = [];
    // No passphrase is given here, so a value holding its text holds no secret.
    for (const [index, value] of pasted.filter((text) => !text.includes(PASSPHRASE)).entries()) {
      const file = join(dir, `targets-${name}-${index}.json`);
      await writeFile(file, JSON.stringify([{ name: 'eu', baseUrl: 'https://h.example', tokenEnv: 'EU_TOKEN', [name]: value }]));
      // No passphrase: without a key, it would be refused before the targets file is read.
      const env = { EU_TOKEN: TOKEN, CONFORMANCE_PASSWORD: PASSWORD };
      const line = refusal(() => loadTargets(loadConfig(['--targets', file], env, join(dir, '.env')), env, join(dir, '.env')));
      if (line !== undefined) lines.push(line);
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(scanner.find(line), line).toBeUndefined();
  });
});

describe('a long value is cut to what a person reads, its length given', () => {
  const long: [string, string][] = [
    ['one long word', 'x'.repeat(100_000)],
    ['20,000 ids', Array.from({ length: 20_000 }, (_, index) => String(index + 1)).join(',')],
    ['a long item in a list', `fr,${'y'.repeat(100_000)}`],
  ];
  test.each(TEXT_SETTINGS)('%s', (name) => {
    const spec: Setting<unknown> = SETTINGS[name];
    for (const [what, value] of long) {
      const line = refusal(() =>
        loadConfig(['--token', TOKEN, '--base-url', 'https://h.example', `--${spec.flag}`, value], {}, join(dir, '.env')),
      );
      if (line === undefined) continue;
      expect(line.length, `${what}: ${line.slice(0, 300)}`).toBeLessThan(MAX_QUOTED_CHARS + 400);
      if (line.includes('…"')) expect(line, what).toMatch(/…" \(\d+ characters\)/);
    }
  });
});

describe('no line a command fails with shows a secret of the invocation, or a value too long to read', () => {
  /** The lines a command line prints on stderr, run in this process with the token in the environment. */
  async function failureLines(args: string[]): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = [];
    const io: CommandIo = {
      ...processIo(),
      log: () => undefined,
      error: (line) => lines.push(line),
      env: { CONFORMANCE_TOKEN: TOKEN, CONFORMANCE_PASSWORD: PASSWORD },
      dotenvPath: join(dir, '.env'),
    };
    return { code: await cli(args, io), lines };
  }

  test.each([
    ['judge', [TOKEN]],
    ['verify', [TOKEN]],
    ['compare', [TOKEN, `${PASSWORD}.json`]],
    ['history', [TOKEN, '--out', join(dir, 'history')]],
    ['merge', [TOKEN, '--out', join(dir, 'merged')]],
    ['baseline', ['--from', 'report.json', '--owner', 'ops', '--reason', 'known', '--expires', TOKEN]],
    ['serve', ['--token', PASSPHRASE, '--path-prefix', PASSPHRASE]],
    ['doctor', ['--base-url', 'https://h.example', '--lang', TOKEN]],
  ])('%s', async (command, args) => {
    const { code, lines } = await failureLines([command, ...args]);
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(scanner.find(lines[0] ?? ''), lines[0]).toBeUndefined();
  });

  test('a path of 100,000 characters is cut where a command quotes it', async () => {
    const { lines } = await failureLines(['judge', 'x'.repeat(100_000)]);
    expect(lines[0]?.length).toBeLessThan(MAX_QUOTED_CHARS + 400);
  });
});
