import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadBaseline } from '../src/config/baseline.js';
import { loadConfig } from '../src/config/load.js';
import { loadTargets } from '../src/config/targets.js';
import { HarnessError } from '../src/errors.js';
import { HttpClient } from '../src/http/client.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { safetyWarnings } from '../src/config/warnings.js';
import { ECHO_FORMS, echoTarget, type EchoForm } from './helpers/echo-targets.js';
import { serveHttp, type LoopbackServer } from './helpers/loopback-server.js';
import { fileResources } from './helpers/file-resources.js';
import { runCli, type CliRun } from './helpers/run-cli.js';
import { tokenFormsIn } from './helpers/token-forms.js';

/** A token with the characters PHP's json_encode and URL encoding rewrite. */
const TOKEN = 'Sup3r/Secret+Token-93f1c2';
/** A token a header name can hold. */
const NAME_TOKEN = 'Hdr-Secret-Token-5d2e8a';
const COMPARE_TOKEN = 'compare-side-token-77ab1c';
const noDotenv = '/nonexistent/.env';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources();

/**
 * The real CLI, for one case of each class of leak: what the process itself prints, whatever writes to its stdout
 * and stderr besides the command's own lines.
 */
async function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = await runCli(args, env);
  cleanUpAfterAll(run.cleanup);
  return run;
}

/** The command line in this process, its lines those the binary prints; the file's runs share one spec runner. */
async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const result = await inProcess.run(args, env);
  cleanUpAfterAll(result.cleanup);
  return result;
}

/** Everything a run showed or wrote, as one text to look for the token in. */
async function everything(run: CliRun): Promise<string> {
  return [run.stdout, run.stderr, ...(await run.files()).map((file) => file.content.toString('utf8'))].join('\n');
}

/** Another host, which must never be reached: it answers like a conformant target, to tempt a wrong verdict. */
async function elsewhere(): Promise<LoopbackServer> {
  const server = await serveHttp((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"status":"success","message":null,"data":{}}');
  });
  cleanUpAfterAll(server.close);
  return server;
}

async function reference(token: string): Promise<string> {
  const server = await startReferenceServer({ token });
  cleanUpAfterAll(server.close);
  return server.url;
}

describe('the token is sent only to the configured origin', () => {
  const leaving = (origin: string, other: LoopbackServer): [string, string][] => [
    ['a path that starts with //', `${origin}//127.0.0.1:${other.port}/`],
    ['a path that starts with /\\', `${origin}/\\127.0.0.1:${other.port}/`],
    ['three slashes and a prefix', `${origin}///127.0.0.1:${other.port}/support`],
  ];

  test.concurrent('a base URL whose path would name another host is a configuration error, for every command', async () => {
    const other = await elsewhere();
    const origin = (await reference(TOKEN)).replace(/\/$/, '');
    const targetsDir = await tempFolder('origin-lock-');
    // Every command against every such base URL, all at once, in this process; the first also as the real process,
    // whose stdout and stderr are the binary's own.
    const invocations = await Promise.all(
      leaving(origin, other).map(async ([, baseUrl], index) => {
        const targetsFile = join(targetsDir, `targets-${index}.json`);
        await writeFile(targetsFile, JSON.stringify([{ name: 'a', baseUrl, tokenEnv: 'A_TOKEN' }]));
        return [
          ['--base-url', baseUrl, '--token', TOKEN],
          ['doctor', '--base-url', baseUrl, '--token', TOKEN],
          ['--base-url', origin, '--token', TOKEN, '--compare-to', baseUrl, '--compare-token', COMPARE_TOKEN],
          ['--targets', targetsFile],
        ];
      }),
    );
    const runs = await Promise.all(
      invocations.flat().map(async (args, index) => ({ args, run: await (index === 0 ? cli : runInProcess)(args, { A_TOKEN: TOKEN }) })),
    );
    for (const { args, run } of runs) {
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        /^CONFIG_INVALID: .* has a path starting with two slashes, which would send requests and the token to another host\. Remove the extra slash/,
      );
      expect(run.stdout).not.toMatch(/conformant/i);
    }
    expect(other.requests).toEqual([]);
    expect(other.connections).toBe(0);
  });

  const clientFor = (baseUrl: string): HttpClient =>
    new HttpClient({ baseUrl, token: TOKEN, password: 'x', timeoutMs: 1000, maxBodyBytes: 1024, maxRequests: 1, userAgent: 'test' });

  test('every URL the client builds stays on the origin, and one that would not is refused before sending', async () => {
    const client = clientFor('http://a.example/support//x/');
    for (const path of ['/api/ticket/status/1', '//b.example/api', '/\\b.example/', '/../../..//b.example/'])
      expect(client.urlFor(path, { lang: '//b.example' }).origin).toBe('http://a.example');
    await client.close();
    // Past the configuration check (a programmatic caller): the client itself refuses.
    const unchecked = clientFor('http://a.example//b.example/');
    expect(unchecked.urlFor('/api/selfservice/type').origin).toBe('http://a.example');
    await unchecked.close();
  });
});

describe('what a target echoes is redacted at capture, in every form', () => {
  test.concurrent.each(Object.keys(ECHO_FORMS) as EchoForm[])('echoed %s: conformant, and the token is nowhere', async (form) => {
    const target = await echoTarget(TOKEN, form);
    cleanUpAfterAll(target.close);
    const run = await runInProcess(['--base-url', target.url, '--token', TOKEN]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(tokenFormsIn(await everything(run), TOKEN)).toEqual([]);
    expect(run.report?.errors).toEqual([]);
    const report = (await run.files()).find((file) => file.path.endsWith('report.json'))?.content.toString() ?? '';
    // The body's echo is replaced; what is left around it is what the target wrapped it in.
    expect(report).toMatch(/user [^"\\]*<redacted>[^"\\]* seen/);
  });

  test.concurrent.each(['upper case', 'lower case', 'hex'] as EchoForm[])('echoed %s inside a header name', async (form) => {
    const target = await echoTarget(NAME_TOKEN, form);
    cleanUpAfterAll(target.close);
    const run = await runInProcess(['--base-url', target.url, '--token', NAME_TOKEN]);
    expect(run.code).toBe(0);
    expect(tokenFormsIn(await everything(run), NAME_TOKEN)).toEqual([]);
    const report = (await run.files()).find((file) => file.path.endsWith('report.json'))?.content.toString() ?? '';
    expect(report).toContain('"x-seen-<redacted>":"1"');
  });

  // The real process: what it prints to its own stdout and stderr holds no echoed token either.
  test.concurrent('--compare-to prints no echoed token, from either side', async () => {
    const target = await echoTarget(TOKEN, 'JSON-escaped by PHP (\\/)');
    const other = await echoTarget(COMPARE_TOKEN, 'upper case');
    cleanUpAfterAll(target.close);
    cleanUpAfterAll(other.close);
    const run = await cli(['--base-url', target.url, '--token', TOKEN, '--compare-to', other.url, '--compare-token', COMPARE_TOKEN]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('HARNESS_SECRET_LEAK');
    const text = await everything(run);
    expect(tokenFormsIn(text, TOKEN)).toEqual([]);
    expect(tokenFormsIn(text, COMPARE_TOKEN)).toEqual([]);
  });
});

describe('tokens that are ordinary words, short or not ASCII', () => {
  test.concurrent.each(['data', 'Open', 'test', 'secret', 'token'])('--token %s: a conformant target is conformant', async (word) => {
    const run = await runInProcess(['--token', word]);
    expect({ code: run.code, leak: /HARNESS_SECRET_LEAK/.test(run.stdout + run.stderr) }).toEqual({ code: 0, leak: false });
    expect(run.report?.verdict).toBe('conformant');
    // What the target sent is redacted wherever the word appears in it; the suite's own words are its own.
    const report = (await run.files()).find((file) => file.path.endsWith('report.json'))?.content.toString() ?? '';
    expect(report).toContain('<redacted>');
    expect(tokenFormsIn(report, word).filter((form) => form.length > word.length)).toEqual([]);
  });

  test.concurrent('a token outside ASCII: conformant, the Bearer probe sends its UTF-8 bytes', async () => {
    const token = 'Schlüssel-ñ-9f3a';
    const run = await runInProcess(['--token', token]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(tokenFormsIn(await everything(run), token)).toEqual([]);
  });

  test('a token shorter than 4 characters is refused before any request, without quoting it', () => {
    for (const token of ['a', 'ab', 'xyz', 'ñé'])
      expect(() => loadConfig(['--base-url', 'https://h.example', '--token', token], {}, noDotenv)).toThrow(
        /^--token is shorter than 4 characters, too short to be told from ordinary text/,
      );
    expect(loadConfig(['--base-url', 'https://h.example', '--token', 'abcd'], {}, noDotenv).token).toBe('abcd');
  });
});

describe('no secret in an error message', () => {
  const messageOf = (load: () => unknown): string => {
    try {
      load();
    } catch (error) {
      if (error instanceof HarnessError) return error.oneLine();
      throw error;
    }
    throw new Error('expected a configuration error');
  };
  const baseUrlMessage = (baseUrl: string): string => messageOf(() => loadConfig(['--base-url', baseUrl, '--token', TOKEN], {}, noDotenv));

  test('a base URL with credentials, whatever else is wrong with it', () => {
    for (const raw of [
      'http://user:SECRETPW@host:99999/',
      'ftp://user:SECRETPW@host/',
      'http://user:SECRETPW@host/?q=1',
      `http://${TOKEN.replaceAll('/', '')}:pw@h:99999/`,
    ]) {
      const message = messageOf(() => loadConfig(['--base-url', raw, '--token', TOKEN], {}, noDotenv));
      expect(message).not.toContain('SECRETPW');
      expect(tokenFormsIn(message, TOKEN)).toEqual([]);
    }
    expect(messageOf(() => loadConfig(['--base-url', 'http://user:SECRETPW@host:99999/'], {}, noDotenv))).toContain(
      '<credentials>@host:99999',
    );
  });

  test('a password with / ? or # unencoded, and a query or fragment, in a URL that is wrong besides', () => {
    for (const baseUrl of [
      'http://admin:pa/SECRETPW@127.0.0.1:99999/',
      'https://admin:pa?SECRETPW@help.example.com/',
      'https://admin:pa#SECRETPW@help.example.com/',
      'https://help.example.com:99999/?api_key=SECRETPW',
      'https://help.example.com:99999/support#SECRETPW',
      'ftp://help.example.com/?api_key=SECRETPW',
      'help.example.com/support?api_key=SECRETPW',
    ]) {
      const message = baseUrlMessage(baseUrl);
      expect(message).toMatch(/^CONFIG_INVALID: --base-url /);
      expect({ baseUrl, secret: message.includes('SECRETPW') }).toEqual({ baseUrl, secret: false });
    }
    // What is left is enough to see the mistake.
    expect(baseUrlMessage('https://help.example.com:99999/support?api_key=SECRETPW')).toContain(
      '"https://help.example.com:99999/support?…"',
    );
    expect(baseUrlMessage('http://admin:pa/SECRETPW@127.0.0.1:99999/')).toContain('"http://<credentials>@127.0.0.1:99999/"');
  });

  test('the token itself in the address, in any form: refused without quoting it', () => {
    for (const baseUrl of [
      `https://help.example.com/${TOKEN}/`,
      `https://help.example.com/api/${encodeURIComponent(TOKEN)}`,
      `https://${Buffer.from(TOKEN).toString('hex')}.example.com/`,
    ]) {
      const message = baseUrlMessage(baseUrl);
      expect(message).toBe(
        'CONFIG_INVALID: --base-url holds the API token. Remove it from the URL; pass the token with --token or CONFORMANCE_TOKEN only',
      );
    }
    // A token that is an ordinary word may be a path segment too.
    expect(loadConfig(['--base-url', 'https://help.example.com/support', '--token', 'support'], {}, noDotenv).baseUrl).toBe(
      'https://help.example.com/support',
    );
  });

  test('the token given as the password too, for a run and for the targets of a targets file', async () => {
    const refusal =
      'CONFIG_INVALID: --password holds the API token. The API ignores the password part: leave --password out, or pass any other value';
    const args = ['--base-url', 'https://help.example.com', '--token', TOKEN];
    expect(messageOf(() => loadConfig([...args, '--password', TOKEN], {}, noDotenv))).toBe(refusal);
    expect(messageOf(() => loadConfig(args, { CONFORMANCE_PASSWORD: TOKEN.toLowerCase() }, noDotenv))).toBe(refusal);
    const dir = await tempFolder('password-token-');
    const targetsFile = join(dir, 'targets.json');
    await writeFile(targetsFile, JSON.stringify([{ name: 'prod', baseUrl: 'https://help.example.com', tokenEnv: 'PROD_TOKEN' }]));
    const config = loadConfig(['--targets', targetsFile, '--password', TOKEN], {}, noDotenv);
    expect(messageOf(() => loadTargets(config, { PROD_TOKEN: TOKEN }, noDotenv))).toBe(refusal);
    // Any other password is the user's to choose.
    expect(loadConfig([...args, '--password', 'anything'], {}, noDotenv).password).toBe('anything');
  });

  test('the token given where an option or a variable name was expected', () => {
    expect(messageOf(() => loadConfig(['--base-url', 'https://h.example', TOKEN], {}, noDotenv))).not.toContain(TOKEN);
    expect(messageOf(() => loadConfig(['--status-id', '1', `--${TOKEN}`], {}, noDotenv))).toMatch(/could not be read/);
  });

  test('a token put in tokenEnv by mistake', async () => {
    const dir = await tempFolder('token-env-');
    for (const mistaken of [TOKEN, 'Sup3rSecretToken93f1c2', 'lowercase_token_value_9f']) {
      const file = join(dir, 'targets.json');
      await writeFile(file, JSON.stringify([{ name: 'prod', baseUrl: 'https://h.example', tokenEnv: mistaken }]));
      const config = loadConfig(['--targets', file], {}, noDotenv);
      const message = messageOf(() => loadTargets(config, {}, noDotenv));
      expect(message).toMatch(/target "prod"|tokenEnv/);
      expect(message).not.toContain(mistaken);
    }
  });

  test('a token file passed as --baseline or --targets', async () => {
    const dir = await tempFolder('token-file-');
    for (const name of ['token.json', 'token.yaml', 'token.txt']) {
      for (const content of [`${TOKEN}\n`, `{"token": ${TOKEN}}`, `token: [${TOKEN}\n`]) {
        const file = join(dir, name);
        await writeFile(file, content);
        const baseline = messageOf(() => loadBaseline(file));
        const targets = messageOf(() => loadTargets(loadConfig(['--targets', file], {}, noDotenv), {}, noDotenv));
        for (const message of [baseline, targets]) {
          expect(message).toMatch(/^CONFIG_INVALID: the (baseline|targets file) /);
          expect(tokenFormsIn(message, TOKEN)).toEqual([]);
        }
      }
    }
  });

  // The real process: its stderr and exit status, not only the command's line.
  test.concurrent('from the command line: one line, exit 2, no credentials', async () => {
    const run = await cli(['--base-url', 'http://user:SECRETPW@127.0.0.1:99999/', '--token', TOKEN]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^CONFIG_INVALID: --base-url "http:\/\/<credentials>@127\.0\.0\.1:99999\/" is not a URL/);
    expect(run.stdout + run.stderr).not.toContain('SECRETPW');
  });
});

describe('certificate checks turned off by the environment', () => {
  test('NODE_TLS_REJECT_UNAUTHORIZED=0 is warned about as --insecure is', () => {
    const warnings = safetyWarnings({ baseUrl: 'https://help.example.com/', insecure: false }, { NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    expect(warnings.map((warning) => warning.code)).toEqual(['TLS_NOT_VERIFIED']);
    expect(warnings[0]?.message).toMatch(
      /^NODE_TLS_REJECT_UNAUTHORIZED=0 is set: the TLS certificate of help\.example\.com is not verified/,
    );
    expect(safetyWarnings({ baseUrl: 'https://help.example.com/', insecure: false }, { NODE_TLS_REJECT_UNAUTHORIZED: '1' })).toEqual([]);
    expect(safetyWarnings({ baseUrl: 'https://help.example.com/', insecure: false }, {})).toEqual([]);
  });
});
