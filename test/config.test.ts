import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { SETTINGS, type Setting } from '../src/config/settings.js';
import { ConfigError } from '../src/errors.js';
import { MAX_FILE_BYTES } from '../src/files/bounded-file.js';
import { safetyWarnings } from '../src/config/warnings.js';
import { fileResources } from './helpers/file-resources.js';
import { selfSignedCertificate } from './helpers/self-signed.js';
import { repoRoot, runCli } from './helpers/run-cli.js';

const { inProcess, tempFolder } = fileResources();
const dir = await tempFolder('conformance-config-');
const dotenvPath = join(dir, '.env');
await writeFile(dotenvPath, 'CONFORMANCE_BASE_URL=https://from-dotenv.example\nCONFORMANCE_TOKEN=dotenv-token\nCONFORMANCE_STATUS_ID=3\n');
const notPem = join(dir, 'not-a-certificate.pem');
await writeFile(notPem, 'this is not a certificate\n');
const unreadable = join(dir, 'absent-ca.pem');

describe('flags beat the environment, which beats .env', () => {
  test('.env alone', () => {
    const config = loadConfig([], {}, dotenvPath);
    expect(config).toMatchObject({
      baseUrl: 'https://from-dotenv.example/',
      token: 'dotenv-token',
      statusId: [3],
      password: 'x',
      out: 'reports',
      timeoutMs: 10000,
      deadlineMs: 60000,
      concurrency: 16,
      insecure: false,
    });
    expect(config.ca).toBeUndefined();
  });
  test('environment over .env', () => {
    const config = loadConfig([], { CONFORMANCE_STATUS_ID: '2', CONFORMANCE_TOKEN: 'env-token' }, dotenvPath);
    expect(config).toMatchObject({ statusId: [2], token: 'env-token', baseUrl: 'https://from-dotenv.example/' });
  });
  test('a list of statuses and of languages, in the order given', () => {
    const config = loadConfig(['--status-id', '1, 2,5'], { CONFORMANCE_LANG: 'fr,de' }, dotenvPath);
    expect(config).toMatchObject({ statusId: [1, 2, 5], lang: ['fr', 'de'] });
  });
  test('flags over environment', () => {
    const config = loadConfig(
      ['--status-id', '5', '--base-url', 'https://flag.example/support', '--strict'],
      { CONFORMANCE_STATUS_ID: '2' },
      dotenvPath,
    );
    expect(config).toMatchObject({ statusId: [5], baseUrl: 'https://flag.example/support', strict: true, token: 'dotenv-token' });
  });
  test('a rate of requests, as Schemathesis writes it, from the flag or the environment', () => {
    expect(loadConfig(['--rate-limit', '5/s'], {}, dotenvPath).rateLimit).toEqual({ text: '5/s', intervalMs: 200 });
    expect(loadConfig([], { CONFORMANCE_RATE_LIMIT: ' 100/m ' }, dotenvPath).rateLimit).toEqual({ text: '100/m', intervalMs: 600 });
    expect(loadConfig(['--rate-limit', '2/h'], { CONFORMANCE_RATE_LIMIT: '9/s' }, dotenvPath).rateLimit?.intervalMs).toBe(1_800_000);
    expect(loadConfig(['--rate-limit', '1/d'], {}, dotenvPath).rateLimit?.intervalMs).toBe(86_400_000);
    expect(loadConfig([], {}, dotenvPath).rateLimit).toBeUndefined();
  });
  test('an empty password flag is kept, since any password may be used', () => {
    expect(loadConfig(['--password', ''], {}, join(dir, 'absent.env')).password).toBe('');
  });
});

describe('every bad setting is one ConfigError naming the setting and the fix', () => {
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ['base URL without a token', ['--base-url', 'https://x.example'], {}, /CONFIG_MISSING_TOKEN.*--token/],
    [
      'base URL that is not a URL',
      ['--base-url', 'help.example.com', '--token', 't'],
      {},
      /CONFIG_INVALID.*--base-url "help\.example\.com" is not a URL/,
    ],
    ['base URL of another scheme', ['--base-url', 'ftp://x.example', '--token', 't'], {}, /not an http\(s\) address/],
    ['base URL with credentials', ['--base-url', 'https://user:pw@x.example', '--token', 't'], {}, /carries credentials/],
    [
      'base URL on port 0',
      ['--base-url', 'http://127.0.0.1:0', '--token', 'port-token'],
      {},
      /^CONFIG_INVALID: --base-url "http:\/\/127\.0\.0\.1:0" has port 0, which no server listens on\. Pass the port/,
    ],
    ['base URL on port 0 from the environment', [], { CONFORMANCE_BASE_URL: 'https://x.example:00/support' }, /--base-url .* has port 0/],
    ['second server on port 0', ['--compare-to', 'http://x.example:0/'], {}, /--compare-to .* has port 0/],
    ['status id not a number', ['--status-id', 'one'], {}, /--status-id "one" is not a whole number/],
    ['status id zero from the environment', [], { CONFORMANCE_STATUS_ID: '0' }, /--status-id "0"/],
    ['status ids with an empty item', ['--status-id', '1,,5'], {}, /^CONFIG_INVALID: --status-id "1,,5" has an empty item\. Pass items/],
    ['status ids ending in a comma', [], { CONFORMANCE_STATUS_ID: '1,2,' }, /--status-id "1,2," has an empty item/],
    ['a status id twice', ['--status-id', '1,2,1'], {}, /--status-id "1,2,1" lists 1 twice\. Pass each item once/],
    ['a status id in a list not a number', ['--status-id', '1,two'], {}, /--status-id "two" is not a whole number from 1 to/],
    [
      'more status ids than the cap',
      ['--status-id', '1,2,3,4,5,6'],
      {},
      /--status-id "1,2,3,4,5,6" lists 6 items, more than 5\. Pass at most 5/,
    ],
    ['a language twice, in two cases', ['--lang', 'fr,FR'], {}, /--lang "fr,FR" lists FR twice/],
    ['a language of three letters in a list', ['--lang', 'fr,deu'], {}, /--lang "deu" is not a two-letter language code/],
    ['more languages than the cap', [], { CONFORMANCE_LANG: 'fr,de,it,es,nl,pt' }, /--lang "fr,de,it,es,nl,pt" lists 6 items, more than 5/],
    ['missing-lang among the languages', ['--lang', 'fr,de', '--missing-lang', 'de'], {}, /--lang and --missing-lang both name "de"/],
    ['time-out negative', ['--timeout-ms', '-5'], {}, /CONFIG_/],
    ['lang of three letters', ['--lang', 'fra'], {}, /--lang "fra" is not a two-letter language code/],
    ['lang equal to missing-lang', ['--lang', 'fr', '--missing-lang', 'FR'], {}, /--missing-lang must name a code/],
    ['unknown flag', ['--bse-url', 'x'], {}, /CONFIG_UNKNOWN_OPTION.*--help/],
    ['empty token', ['--base-url', 'https://x.example', '--token', ''], {}, /CONFIG_INVALID: --token is empty\. Pass the API token/],
    ['blank token from the environment', [], { CONFORMANCE_TOKEN: '   ' }, /--token is empty/],
    ['token with a colon', ['--token', 'abc:def'], {}, /--token contains ":".*--password/],
    [
      'a token read from a file with its line break',
      [],
      { CONFORMANCE_TOKEN: 'reference-token\n' },
      /^CONFIG_INVALID: --token ends with a line break, which no API token holds \(copied with the end of its line, or from a file\?\)\. Pass the token without it/,
    ],
    ['a token with a line break written by Windows', ['--token', 'reference-token\r\n'], {}, /--token ends with a line break/],
    ['a token with a tab inside', ['--token', 'reference\ttoken'], {}, /--token holds a control character/],
    ['a token pasted with a space before it', ['--token', ' reference-token'], {}, /--token starts or ends with a space/],
    ['a token pasted from a chat with a zero-width space', ['--token', 'reference\u200btoken'], {}, /--token holds an invisible character/],
    ['a token with a no-break space after it', [], { CONFORMANCE_TOKEN: 'reference-token\u00a0' }, /--token starts or ends with a space/],
    [
      'deadline not a number',
      ['--deadline-ms', 'soon'],
      {},
      /--deadline-ms "soon" is not a whole number from 1 to \d+\. Pass e\.g\. --deadline-ms 60000/,
    ],
    ['deadline negative', [], { CONFORMANCE_DEADLINE_MS: '-1' }, /--deadline-ms "-1" is not a whole number.*CONFORMANCE_DEADLINE_MS/],
    ['concurrency zero', ['--concurrency', '0'], {}, /--concurrency "0" is not a whole number from 1 to 32/],
    [
      'a rate without its unit',
      ['--rate-limit', '5'],
      {},
      /^CONFIG_INVALID: --rate-limit "5" is not a rate of requests such as 5\/s or 100\/m \(from 1\/d to 1000\/s\)\. Pass a count and a unit/,
    ],
    ['a rate of an unknown unit', [], { CONFORMANCE_RATE_LIMIT: '5/w' }, /--rate-limit "5\/w" is not a rate.*CONFORMANCE_RATE_LIMIT/],
    ['a rate of zero', ['--rate-limit', '0/s'], {}, /--rate-limit "0\/s" is not a rate/],
    ['a rate faster than a request a millisecond', ['--rate-limit', '1001/s'], {}, /--rate-limit "1001\/s" is not a rate/],
    ['concurrency too high', ['--concurrency', '1000'], {}, /--concurrency "1000" is not a whole number from 1 to 32/],
    [
      'CA file that cannot be read',
      ['--ca', unreadable],
      {},
      /CONFIG_INVALID: --ca ".*absent-ca\.pem" could not be read: no such file or folder \(ENOENT\)\. Pass a readable PEM file/,
    ],
    ['CA file that holds no certificate', ['--ca', notPem], {}, /--ca ".*not-a-certificate\.pem" holds no PEM certificate/],
    ['CA file and --insecure together', ['--ca', notPem, '--insecure'], {}, /--ca and --insecure are both set\. .*keep only --ca/],
  ];
  test.each(cases)('%s', (_name, argv, env, message) => {
    let thrown: unknown;
    try {
      loadConfig(argv, env, join(dir, 'absent.env'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).oneLine()).toMatch(message);
    expect((thrown as ConfigError).oneLine()).not.toContain('\n');
  });
});

test('the CLI prints one line and exits 2 on bad configuration, without a stack trace', async () => {
  // The real CLI: the binary's exit status, and nothing else on stderr from the process around the command.
  const run = await runCli(['--base-url', 'https://x.example']);
  try {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^CONFIG_MISSING_TOKEN: no API token for https:\/\/x\.example\/\. Pass --token/),
    ]);
  } finally {
    await run.cleanup();
  }
});

test('--help lists every option with its environment variable and default', async () => {
  const run = await inProcess.run(['--help']);
  try {
    expect(run.code).toBe(0);
    for (const text of [
      '--base-url',
      'CONFORMANCE_BASE_URL',
      '--token',
      '--password',
      'default x',
      '--status-id',
      '--lang',
      '--missing-lang',
      '--out',
      '--strict',
      '--timeout-ms',
      'default 10000',
      '--deadline-ms',
      'default 60000',
      '--concurrency',
      '--rate-limit N/s',
      'CONFORMANCE_RATE_LIMIT',
      '--ca',
      'CONFORMANCE_CA',
      '--insecure',
    ]) {
      expect(run.stdout).toContain(text);
    }
  } finally {
    await run.cleanup();
  }
});

test('the option tables of the docs give each flag the variable and default of the settings table', () => {
  for (const doc of ['docs/options.md', 'docs/matrix.md']) {
    const rows = readFileSync(join(repoRoot, doc), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `--'));
    expect(rows.length, doc).toBeGreaterThan(0);
    for (const row of rows) {
      const [flagCell = '', variableCell = '', defaultCell = ''] = row
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      const spec: Setting<unknown> | undefined = Object.values(SETTINGS).find((setting) =>
        [' ', '`'].some((end) => flagCell.startsWith(`\`--${setting.flag}${end}`)),
      );
      expect(spec, row).toBeDefined();
      expect(variableCell.replace(/`/g, '').replace(/=1$/, ''), row).toBe(spec?.env ?? '');
      const shown =
        Array.isArray(spec?.default) && spec.default.length > 0 && spec.default.every((item) => typeof item === 'number')
          ? spec.default.join(',')
          : spec?.default;
      if (typeof shown === 'string' || typeof shown === 'number') expect(defaultCell, row).toBe(`\`${shown}\``);
    }
  }
});

describe('settings that weaken what is promised about the token are warned about', () => {
  test.each([
    ['http://help.example.com', false, ['TOKEN_OVER_PLAIN_HTTP']],
    ['http://10.0.0.7:8080/support', false, ['TOKEN_OVER_PLAIN_HTTP']],
    ['https://help.example.com', true, ['TLS_NOT_VERIFIED']],
    ['https://help.example.com', false, []],
    ['http://127.0.0.1:8080', false, []],
    ['http://127.8.9.10', false, []],
    ['http://[::1]:8080', false, []],
    ['http://localhost:8080', false, []],
    ['http://api.localhost', false, []],
  ])('%s (insecure: %s)', (baseUrl, insecure, codes) => {
    expect(safetyWarnings({ baseUrl, insecure }).map((warning) => warning.code)).toEqual(codes);
  });
});

describe('a client certificate (mutual TLS) is read and checked before any request', () => {
  const configMessage = (argv: string[]): string => {
    try {
      loadConfig(['--base-url', 'https://help.example.com', '--token', 'config-token-0d5a', ...argv], {}, dotenvPath);
    } catch (error) {
      if (error instanceof ConfigError) return `${error.message}. ${error.hint}`;
      throw error;
    }
    throw new Error('no ConfigError was thrown');
  };

  test('a file that is no certificate, or holds no key, is named with the fix, its content never quoted', () => {
    expect(configMessage(['--cert', notPem, '--key', notPem])).toBe(
      `--cert "${notPem}" holds no PEM certificate. Pass a readable PEM file holding the client certificate (-----BEGIN CERTIFICATE-----)`,
    );
    expect(configMessage(['--key', notPem])).toBe(
      `--key "${notPem}" holds no PEM private key. Pass a readable PEM file holding the private key of the client certificate (-----BEGIN PRIVATE KEY-----)`,
    );
    expect(configMessage(['--key', unreadable])).toMatch(/^--key ".*absent-ca\.pem" could not be read/);
  });

  test('a key file of BEGIN lines without an END line, up to the size cap, is refused as holding no key', async () => {
    const line = '-----BEGIN PRIVATE KEY-----\n';
    const begins = join(dir, 'begins.pem');
    // As large as a file the suite reads: a pattern that tried each BEGIN line against the rest would never finish.
    await writeFile(begins, line.repeat(Math.floor(MAX_FILE_BYTES / line.length)));
    expect(configMessage(['--key', begins])).toBe(
      `--key "${begins}" holds no PEM private key. Pass a readable PEM file holding the private key of the client certificate (-----BEGIN PRIVATE KEY-----)`,
    );
    // The same file as a target's key, its certificate a real one.
    const certificate = await selfSignedCertificate();
    try {
      const targets = join(dir, 'begins-targets.json');
      await writeFile(
        targets,
        JSON.stringify([{ name: 'eu', baseUrl: 'https://h.example', tokenEnv: 'EU_TOKEN', cert: certificate.certPath, key: begins }]),
      );
      const env = { EU_TOKEN: 'config-token-0d5a' };
      const noDotenv = join(dir, 'absent.env');
      expect(() => loadTargets(loadConfig(['--targets', targets], env, noDotenv), env, noDotenv)).toThrow(
        `target "eu" key "${begins}" holds no PEM private key`,
      );
    } finally {
      await certificate.cleanup();
    }
  });

  test('a passphrase without a key is refused', () => {
    expect(configMessage(['--key-passphrase', 'unlock-me-please'])).toBe(
      '--key-passphrase is set without --key. The passphrase unlocks the key of a client certificate: pass --cert FILE and --key FILE with it, or drop it',
    );
  });
});
