import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { PER_TARGET } from '../src/config/settings.js';
import { loadTargets } from '../src/config/targets.js';
import { ConfigError } from '../src/errors.js';
import { shardOf } from '../src/pipeline/shard.js';
import { fileResources } from './helpers/file-resources.js';
import { mutualTlsFiles } from './helpers/mutual-tls.js';
import { repoRoot } from './helpers/run-cli.js';

const { tempFolder } = fileResources();
const dir = await tempFolder('conformance-targets-config-');
const noDotenv = join(dir, 'absent.env');

async function targetsFile(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('no ConfigError was thrown');
}

describe('the targets file', () => {
  test('YAML with per-target options over the run options, tokens from the environment or .env', async () => {
    const file = await targetsFile(
      'targets.yaml',
      'targets:\n  - name: eu\n    baseUrl: https://eu.example/support\n    tokenEnv: EU_TOKEN\n    statusId: 3\n    lang: de\n  - name: us\n    baseUrl: https://us.example\n    tokenEnv: US_TOKEN\n',
    );
    const dotenv = await targetsFile('.env', 'US_TOKEN=us-from-dotenv\n');
    const config = loadConfig(['--targets', file, '--timeout-ms', '2000', '--strict'], {}, noDotenv);
    const targets = loadTargets(config, { EU_TOKEN: 'eu-token' }, dotenv);
    // What every target takes from the run's own options unless its entry sets it.
    const fromTheRun = {
      password: 'x',
      strict: true,
      missingLang: undefined,
      timeoutMs: 2000,
      maxRequests: 40,
      repeat: 1,
      deadlineMs: 60000,
      concurrency: 16,
      ca: undefined,
      insecure: false,
    };
    expect(targets.map(({ name, baseUrl, token, options }) => ({ name, baseUrl, token, ...options }))).toEqual([
      { ...fromTheRun, name: 'eu', baseUrl: 'https://eu.example/support', token: 'eu-token', statusId: [3], lang: ['de'] },
      { ...fromTheRun, name: 'us', baseUrl: 'https://us.example/', token: 'us-from-dotenv', statusId: [1], lang: undefined },
    ]);
  });

  test('JSON as a bare list', async () => {
    const file = await targetsFile('list.json', JSON.stringify([{ name: 'a', baseUrl: 'http://127.0.0.1:1', tokenEnv: 'A' }]));
    expect(loadTargets(loadConfig(['--targets', file], {}, noDotenv), { A: 'token-a' }, noDotenv).map((target) => target.name)).toEqual([
      'a',
    ]);
  });

  test.each([
    [
      'a missing token variable',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'UNSET' }],
      'CONFIG_MISSING_TOKEN',
      'no API token for target "a": UNSET is not set',
    ],
    [
      'a name used twice, whatever its case',
      [
        { name: 'a', baseUrl: 'http://h', tokenEnv: 'A' },
        { name: 'A', baseUrl: 'http://h', tokenEnv: 'A' },
      ],
      'CONFIG_INVALID',
      'names "A" twice',
    ],
    [
      'a base URL with credentials',
      [{ name: 'a', baseUrl: 'http://u:p@h', tokenEnv: 'A' }],
      'CONFIG_INVALID',
      'target "a" baseUrl carries credentials',
    ],
    [
      'a base URL on port 0',
      [{ name: 'a', baseUrl: 'http://h:0', tokenEnv: 'A' }],
      'CONFIG_INVALID',
      'target "a" baseUrl "http://h:0" has port 0',
    ],
    [
      'a field the schema does not know',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', token: 'inline' }],
      'CONFIG_INVALID',
      'does not match schemas/targets.schema.json',
    ],
    [
      'a status id out of the bounds of --status-id',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', statusId: 0 }],
      'CONFIG_INVALID',
      'target "a" statusId "0" is not a whole number from 1 to 9007199254740991. Pass e.g. statusId: 1 in the targets file',
    ],
    [
      'a time-out beyond the bounds of --timeout-ms',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', timeoutMs: 600_001 }],
      'CONFIG_INVALID',
      'target "a" timeoutMs "600001" is not a whole number from 1 to 600000. Pass e.g. timeoutMs: 10000 in the targets file',
    ],
    [
      'a rate that is no count over a unit',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', rateLimit: '5 per second' }],
      'CONFIG_INVALID',
      'target "a" rateLimit "5 per second" is not a rate of requests such as 5/s or 100/m',
    ],
    [
      'a lang that is no two-letter code',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', lang: 'fra' }],
      'CONFIG_INVALID',
      'target "a" lang "fra" is not a two-letter language code',
    ],
    [
      'a status id twice in a list',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', statusId: [1, 2, 1] }],
      'CONFIG_INVALID',
      'target "a" statusId "1,2,1" lists 1 twice',
    ],
    [
      'a status id that is no number',
      [{ name: 'a', baseUrl: 'http://h', tokenEnv: 'A', statusId: '3' }],
      'CONFIG_INVALID',
      'does not match schemas/targets.schema.json',
    ],
    [
      'a name that cannot be a folder',
      [{ name: '../up', baseUrl: 'http://h', tokenEnv: 'A' }],
      'CONFIG_INVALID',
      'does not match schemas/targets.schema.json',
    ],
  ])('refuses %s in one error', async (_what, content, code, message) => {
    const file = await targetsFile('bad.json', JSON.stringify(content));
    const error = configError(() => loadTargets(loadConfig(['--targets', file], {}, noDotenv), { A: 'token-a' }, noDotenv));
    expect(error.code).toBe(code);
    expect(error.oneLine()).toContain(message);
  });

  test('a target may list several statuses and languages, as a YAML list or as the flag writes them', async () => {
    const file = await targetsFile(
      'several.yaml',
      'targets:\n  - name: eu\n    baseUrl: https://eu.example\n    tokenEnv: EU_TOKEN\n    statusId: [1, 2, 5]\n    lang: fr,de\n',
    );
    const [target] = loadTargets(loadConfig(['--targets', file], {}, noDotenv), { EU_TOKEN: 'eu-token' }, noDotenv);
    expect(target?.options).toMatchObject({ statusId: [1, 2, 5], lang: ['fr', 'de'] });
  });

  test("a target behind a rate limit sets its own pace over the run's, read as --rate-limit reads it", async () => {
    const file = await targetsFile(
      'paced.yaml',
      'targets:\n  - name: throttled\n    baseUrl: https://eu.example\n    tokenEnv: EU_TOKEN\n    rateLimit: 30/m\n  - name: open\n    baseUrl: https://us.example\n    tokenEnv: EU_TOKEN\n',
    );
    const unpaced = loadTargets(loadConfig(['--targets', file], {}, noDotenv), { EU_TOKEN: 'eu-token' }, noDotenv);
    expect(unpaced.map((target) => target.options.rateLimit)).toEqual([{ text: '30/m', intervalMs: 2000 }, undefined]);
    const paced = loadTargets(loadConfig(['--targets', file, '--rate-limit', '4/s'], {}, noDotenv), { EU_TOKEN: 'eu-token' }, noDotenv);
    expect(paced.map((target) => target.options.rateLimit?.text)).toEqual(['30/m', '4/s']);
  });

  test('a target may set exactly the settings the table marks per target, and the schema checks their type only', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/targets.schema.json'), 'utf8')) as {
      $defs: { target: { properties: Record<string, { type: string } & Record<string, unknown>> } };
    };
    const { name, baseUrl, tokenEnv, ...settings } = schema.$defs.target.properties;
    expect([name, baseUrl, tokenEnv].every(Boolean)).toBe(true);
    expect(Object.keys(settings).sort()).toEqual([...PER_TARGET].sort());
    // Bounds and patterns are the table's: a copy in the schema would refuse values before its parsers could say why.
    // A setting that takes one value or a list (statusId, lang) says so with a type for each.
    const typesOnly = (property: Record<string, unknown>): boolean => {
      const keys = Object.keys(property).sort().join(' ');
      if (keys === 'description type') return true;
      const alternatives = property.anyOf;
      return (
        keys === 'anyOf description' && Array.isArray(alternatives) && alternatives.every((entry) => Object.keys(entry).join() === 'type')
      );
    };
    for (const property of Object.values(settings)) expect(typesOnly(property)).toBe(true);
  });

  test('a YAML tag such as !!js/function is one error naming its line and column, quoting nothing of the file', async () => {
    const secret = 'tag-secret-5e1f0a';
    const file = await targetsFile(
      'tagged.yaml',
      `targets:\n  - name: a\n    baseUrl: https://h.example\n    tokenEnv: !!js/function "function () { return '${secret}' }"\n`,
    );
    // The parser's warnings would otherwise go to the process's stderr, each quoting the line.
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const error = configError(() => loadTargets(loadConfig(['--targets', file], {}, noDotenv), { A: 'token-a' }, noDotenv));
      expect(error.oneLine()).toBe(
        `CONFIG_INVALID: the targets file ${file} has a tag the suite does not read (line 4, column 15). Write plain YAML: maps, lists, strings and numbers, no tags`,
      );
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      warnings.mockRestore();
    }
  });
});

describe('a tokenEnv naming a variable of the system or the CI', () => {
  const system = {
    HOME: '/home/runner',
    PATH: '/usr/bin:/bin',
    GITHUB_TOKEN: 'ghs_actions-token-0f3a',
    ACTIONS_RUNTIME_TOKEN: 'runtime-token-77c1',
    AWS_SECRET_ACCESS_KEY: 'aws-secret-9d2b',
    CI_JOB_TOKEN: 'gitlab-job-token-4e8a',
  };
  const targetsOf = async (tokenEnv: string): Promise<string> =>
    targetsFile(`${tokenEnv}.json`, JSON.stringify([{ name: 'a', baseUrl: 'https://h.example', tokenEnv }]));

  test.each([...Object.keys(system), 'home'])('%s is refused, set or not, naming the flag that allows it', async (tokenEnv) => {
    const file = await targetsOf(tokenEnv);
    const error = configError(() => loadTargets(loadConfig(['--targets', file], {}, noDotenv), system, noDotenv));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/^target "a": tokenEnv names .* that the system or the CI sets, so its value is not sent/);
    expect(error.hint).toMatch(/pass --allow-token-env \w+$/);
    for (const value of Object.values(system)) expect(error.oneLine()).not.toContain(value);
  });

  test('--allow-token-env, or its variable, lets the names it lists through, and only those', async () => {
    const tokenOf = async (tokenEnv: string, argv: string[], env: Record<string, string> = {}): Promise<string | undefined> => {
      const file = await targetsOf(tokenEnv);
      return loadTargets(loadConfig(['--targets', file, ...argv], env, noDotenv), system, noDotenv)[0]?.token;
    };
    expect(await tokenOf('GITHUB_TOKEN', ['--allow-token-env', 'GITHUB_TOKEN'])).toBe(system.GITHUB_TOKEN);
    const allowed = { CONFORMANCE_ALLOW_TOKEN_ENV: 'HOME, AWS_SECRET_ACCESS_KEY' };
    expect(await tokenOf('AWS_SECRET_ACCESS_KEY', [], allowed)).toBe(system.AWS_SECRET_ACCESS_KEY);
    const other = tokenOf('ACTIONS_RUNTIME_TOKEN', ['--allow-token-env', 'GITHUB_TOKEN']);
    await expect(other).rejects.toThrow(/tokenEnv names ACTIONS_RUNTIME_TOKEN that the system or the CI sets/);
  });

  test('a variable of its own name is read as before', async () => {
    for (const tokenEnv of ['PROD_TOKEN', 'TOKEN_STAGING', 'EXPORTER_TOKEN_1', 'HOMEPAGE_TOKEN']) {
      const file = await targetsOf(tokenEnv);
      expect(loadTargets(loadConfig(['--targets', file], {}, noDotenv), { [tokenEnv]: 'own-token-5b' }, noDotenv)[0]?.token).toBe(
        'own-token-5b',
      );
    }
  });
});

describe('matrix options', () => {
  test('--shard I/N is read, and refused when not 1 <= I <= N or without --targets', () => {
    expect(loadConfig(['--targets', 'x.yaml', '--shard', '2/4'], {}, noDotenv).shard).toEqual({ index: 2, count: 4 });
    expect(configError(() => loadConfig(['--targets', 'x.yaml', '--shard', '5/4'], {}, noDotenv)).message).toContain('--shard "5/4"');
    expect(configError(() => loadConfig(['--targets', 'x.yaml', '--shard', '0/4'], {}, noDotenv)).message).toContain('--shard "0/4"');
    expect(configError(() => loadConfig(['--shard', '1/2'], {}, noDotenv)).message).toBe('--shard is set without --targets');
  });

  test('--targets and --base-url exclude each other; --target-concurrency defaults to 4', () => {
    expect(configError(() => loadConfig(['--targets', 'x.yaml', '--base-url', 'http://h', '--token', 'tkn1'], {}, noDotenv)).message).toBe(
      '--targets and --base-url are both set',
    );
    expect(loadConfig(['--targets', 'x.yaml'], {}, noDotenv).targetConcurrency).toBe(4);
    expect(loadConfig([], { CONFORMANCE_TARGET_CONCURRENCY: '16' }, noDotenv).targetConcurrency).toBe(16);
  });

  test('shards take every N-th target from the I-th: each target in exactly one shard, in file order', () => {
    const targets = Array.from({ length: 11 }, (_, index) => index);
    const shards = [1, 2, 3].map((index) => shardOf(targets, { index, count: 3 }));
    expect(shards).toEqual([
      [0, 3, 6, 9],
      [1, 4, 7, 10],
      [2, 5, 8],
    ]);
    expect(shardOf(targets, undefined)).toEqual(targets);
  });
});

describe('a target with a client certificate of its own (mutual TLS)', async () => {
  const files = await mutualTlsFiles(await tempFolder('conformance-targets-mtls-'));
  const targetsWith = async (fields: Record<string, string>): Promise<ReturnType<typeof loadTargets>> => {
    const file = await targetsFile('mtls.json', JSON.stringify([{ name: 'a', baseUrl: 'https://a.example', tokenEnv: 'A', ...fields }]));
    return loadTargets(loadConfig(['--targets', file], {}, noDotenv), { A: 'token-a' }, noDotenv);
  };

  test('reads cert and key through the parsers of --cert and --key', async () => {
    const [target] = await targetsWith({ cert: files.clientCertFile, key: files.clientKeyFile });
    expect(target?.options.cert?.path).toBe(files.clientCertFile);
    expect(target?.options.key?.pem).toBe(files.clientKeyPem.trim());
  });

  test.each([
    [{ cert: 'clientCertFile' }, 'target "a": cert is set without key'],
    [{ key: 'clientKeyFile' }, 'target "a": key is set without cert'],
    [
      { cert: 'clientCertFile', key: 'otherKeyFile' },
      `target "a": key "${files.otherKeyFile}" is not the private key of cert "${files.clientCertFile}"`,
    ],
    [{ cert: 'clientCertFile', key: 'encryptedClientKeyFile' }, `target "a": key "${files.encryptedClientKeyFile}" is encrypted`],
  ] as const)('refuses %o in one line', async (fields, message) => {
    const paths = Object.fromEntries(Object.entries(fields).map(([field, name]) => [field, files[name]]));
    const refusal = targetsWith(paths);
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    await expect(refusal).rejects.toMatchObject({ message });
  });
});
