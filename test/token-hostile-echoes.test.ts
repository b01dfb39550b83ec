import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { forward, serveHttp, type LoopbackServer } from './helpers/loopback-server.js';
import type { CliRun } from './helpers/run-cli.js';
import { tokenFormsIn } from './helpers/token-forms.js';

// What token-safety.test.ts leaves out: a target that writes the credential it received back through other parts of
// its answer (status line, trailers, cookies, links), in another character encoding, at the start of an answer that
// is not JSON, or that points the suite elsewhere.

/** A token with characters that URL, JSON and HTML encoders rewrite. */
const TOKEN = 'Sup3r/Secret+Token-93f1c2';
/** A token outside ASCII, long enough that its letters in order are not found in a report by chance. */
const WIDE_TOKEN = 'Schlüssel-ñ-9f3a-Kennwort-7e2d';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources({ reports: REPORT_KINDS });

/**
 * The token's letters and digits in their order, each at most `gap` characters after the one before: how the token
 * reads to a person whatever was put between its characters (a NUL of UTF-16 as \u0000, an entity, mojibake).
 * Written independently of the suite's scanner, so a pass does not take its word for it.
 */
function spread(token: string, gap: number): RegExp {
  const letters = [...token].filter((char) => /^[A-Za-z0-9]$/.test(char));
  return new RegExp(letters.join(`[^]{0,${gap}}?`));
}

async function everything(run: CliRun): Promise<string> {
  return [run.stdout, run.stderr, ...(await run.files()).map((file) => `${file.path}\n${file.content.toString('utf8')}`)].join('\n');
}

/** The file of a run whose name ends so. */
async function fileOf(run: CliRun, name: string): Promise<string> {
  return (await run.files()).find((file) => file.path.endsWith(name))?.content.toString('utf8') ?? '';
}

/** The user name and password of a Basic credential, as a server that echoes them decodes them. */
function credentialOf(request: IncomingMessage): string {
  const credential = (request.headers.authorization ?? '').replace(/^Basic /i, '');
  return Buffer.from(credential, 'base64').toString('utf8');
}

type Hostile = (request: IncomingMessage, response: ServerResponse, upstream: URL) => void;

/** The reference server behind a front that answers as hostile says, on the loopback; closed after the file. */
async function hostileTarget(token: string, hostile: Hostile): Promise<LoopbackServer> {
  const reference = await startReferenceServer({ token });
  cleanUpAfterAll(reference.close);
  const upstream = new URL(reference.url);
  const front = await serveHttp((request, response) => hostile(request, response, upstream));
  cleanUpAfterAll(front.close);
  return front;
}

async function run(args: string[]): Promise<CliRun> {
  const result = await inProcess.run(args);
  cleanUpAfterAll(result.cleanup);
  return result;
}

const SELF_SERVICE = /\/api\/selfservice\/type$/;
const ENVELOPE_START = '{"status":"success","message":null,"data":[],"debug":"';

describe('a target that echoes the credential outside the body', () => {
  test.concurrent('status line, trailer, cookies, Link, Content-Location, WWW-Authenticate, a long header', async () => {
    // Whatever credential arrives is written back: the token, the near misses the suite sends, and the token sent as a password.
    const target = await hostileTarget(TOKEN, (request, response, upstream) => {
      const echoed = credentialOf(request).replace(/[^\x20-\x7e]/g, '?');
      const original = response.writeHead.bind(response);
      response.writeHead = ((status: number, headers?: Record<string, string | string[]>) => {
        response.statusMessage = `Seen ${echoed}`;
        response.setHeader('set-cookie', [`user=${encodeURIComponent(echoed)}; Path=/`, `sid=${Buffer.from(echoed).toString('base64')}`]);
        response.setHeader('link', `</api/users/${encodeURIComponent(echoed)}>; rel="author"`);
        response.setHeader('content-location', `/api/selfservice/type?u=${echoed}`);
        response.setHeader('www-authenticate', `Basic realm="${echoed}", charset="UTF-8"`);
        response.setHeader('x-request-dump', `${'a=1; '.repeat(4000)}authorization=${request.headers.authorization ?? ''}`);
        response.setHeader('trailer', 'x-debug-user');
        // Trailers need a chunked answer: without the upstream's length.
        return original(status, Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => name !== 'content-length')));
      }) as typeof response.writeHead;
      const end = response.end.bind(response);
      response.end = ((...args: Parameters<typeof response.end>) => {
        response.addTrailers({ 'x-debug-user': echoed });
        return end(...args);
      }) as typeof response.end;
      forward(request, response, upstream);
    });
    const result = await run(['--base-url', target.url, '--token', TOKEN]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const text = await everything(result);
    expect(tokenFormsIn(text, TOKEN)).toEqual([]);
    expect(text).not.toMatch(spread(TOKEN, 6));
    const recording = await fileOf(result, 'recording.json');
    // The echoes reached the recording, each redacted where it stood.
    for (const header of ['set-cookie', 'link', 'content-location', 'www-authenticate', 'x-request-dump'])
      expect(recording).toMatch(new RegExp(`"${header}": "(?:[^"\\\\]|\\\\.)*<redacted>`));
  });
});

describe('a target that echoes the credential in another character encoding', () => {
  const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();
  const cases: [string, string, (request: IncomingMessage, response: ServerResponse) => void][] = [
    [
      'UTF-16LE with a byte order mark, as declared',
      TOKEN,
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-16' });
        response.end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${ENVELOPE_START}user ${TOKEN} seen"}`, 'utf16le')]));
      },
    ],
    [
      'UTF-16BE without a byte order mark, declared UTF-8, gzipped and sent a few bytes a write',
      TOKEN,
      (_request, response) => {
        const body = gzipSync(utf16be(`${ENVELOPE_START}user ${TOKEN} seen"}`));
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' });
        for (let at = 0; at < body.length; at += 7) response.write(body.subarray(at, at + 7));
        response.end();
      },
    ],
    [
      'a token outside ASCII: Latin-1 bytes, HTML entities, and UTF-8 read as Latin-1, in one body; its UTF-8 bytes in a header',
      WIDE_TOKEN,
      (_request, response) => {
        const entities = WIDE_TOKEN.replace('ü', '&uuml;').replace('ñ', '&ntilde;');
        const mojibake = Buffer.from(WIDE_TOKEN, 'utf8').toString('latin1');
        response.writeHead(200, {
          'content-type': 'application/json; charset=iso-8859-1',
          // Header values travel as bytes: these are the token's UTF-8 bytes.
          'x-debug-user': mojibake,
        });
        response.end(
          Buffer.concat([
            Buffer.from(`${ENVELOPE_START}latin1 `),
            Buffer.from(WIDE_TOKEN, 'latin1'),
            Buffer.from(`, html ${entities}, mojibake ${mojibake} seen"}`, 'utf8'),
          ]),
        );
      },
    ],
  ];

  test.concurrent.each(cases)('%s', async (_name, token, answer) => {
    const target = await hostileTarget(token, (request, response, upstream) => {
      if (credentialOf(request).startsWith(`${token}:`) && SELF_SERVICE.test(request.url ?? '')) answer(request, response);
      else forward(request, response, upstream);
    });
    const result = await run(['--base-url', target.url, '--token', token]);
    expect(result.report?.requests.sent).toBeGreaterThan(0);
    const text = await everything(result);
    expect(text).not.toMatch(spread(token, 8));
    expect(await fileOf(result, 'recording.json')).toContain('<redacted>');
  });
});

describe('a target that echoes the credential in base64 wrapped across lines', () => {
  /** Long enough that the base64 of `token:x` runs past one line of 64 or 76 characters. */
  const LONG_TOKEN = 'f3a9c1e7b5d20486-Sup3r/Secret+Token-7e2d9b4a61c8f053e2a7d9b1';
  const base64Lines = (width: number, end: string): string =>
    (
      Buffer.from(`${LONG_TOKEN}:x`)
        .toString('base64')
        .match(new RegExp(`.{1,${width}}`, 'g')) ?? []
    ).join(end);
  const cases: [string, string, string][] = [
    ['MIME, 76 a line with CRLF, raw in a text body', 'text/plain', `credential:\r\n${base64Lines(76, '\r\n')}\r\n`],
    ['PEM, 64 a line with LF, JSON-escaped in the envelope', 'application/json', `${ENVELOPE_START}${base64Lines(64, '\\n')}"}`],
    ["PHP's chunk_split, 76 a line with CRLF, JSON-escaped", 'application/json', `${ENVELOPE_START}${base64Lines(76, '\\r\\n')}\\r\\n"}`],
  ];

  test.concurrent.each(cases)('%s', async (_name, type, body) => {
    // The credential's base64 is cut by a line break, raw or JSON-escaped.
    expect(body).toMatch(/\n|\\n/);
    const target = await hostileTarget(LONG_TOKEN, (request, response, upstream) => {
      if (!credentialOf(request).startsWith(`${LONG_TOKEN}:`) || !SELF_SERVICE.test(request.url ?? ''))
        return forward(request, response, upstream);
      response.writeHead(200, { 'content-type': type });
      response.end(body);
    });
    const result = await run(['--base-url', target.url, '--token', LONG_TOKEN]);
    expect(result.report?.requests.sent).toBeGreaterThan(0);
    // Read with its line breaks taken out, raw or escaped, as whoever reads the artifact would join the lines.
    const joined = (await everything(result)).replace(/\\r|\\n|\r|\n/g, '');
    expect(tokenFormsIn(joined, LONG_TOKEN)).toEqual([]);
    expect(await fileOf(result, 'recording.json')).toContain('<redacted>');
  });
});

describe('a target that names the user in an answer that is not JSON', () => {
  test.concurrent('the answer starts with the token: no part of it is quoted where the JSON error is told', async () => {
    const target = await hostileTarget(TOKEN, (request, response, upstream) => {
      if (!credentialOf(request).startsWith(`${TOKEN}:`) || !SELF_SERVICE.test(request.url ?? ''))
        return forward(request, response, upstream);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`${TOKEN} may not list the ticket types`);
    });
    const result = await run(['--base-url', target.url, '--token', TOKEN]);
    expect(result.stdout).toContain(
      "Actual:   HTTP 200 (application/json) <redacted> may not list the ticket types (Unexpected token 'S', not valid JSON)",
    );
    // Nine characters of the token, at any place in it, are more than a report can hold by chance.
    const text = await everything(result);
    const pieces = [...TOKEN].map((_char, at) => TOKEN.slice(at, at + 9)).filter((piece) => piece.length === 9);
    expect(pieces.filter((piece) => text.includes(piece))).toEqual([]);
  });
});

describe('a target that redirects the suite elsewhere', () => {
  test.concurrent('301, 302, 303, 307 and 308 to another origin in five spellings: none followed, the token nowhere', async () => {
    const elsewhere = await serveHttp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"success","message":null,"data":{}}');
    });
    cleanUpAfterAll(elsewhere.close);
    let answered = 0;
    const target = await hostileTarget(TOKEN, (request, response, upstream) => {
      if (!request.url?.includes('/api/')) return forward(request, response, upstream);
      const other = `127.0.0.1:${elsewhere.port}`;
      const redirects: [number, string][] = [
        [301, `http://${other}${request.url}`],
        // Protocol-relative, and with a backslash that browsers read as a slash.
        [302, `//${other}/`],
        [307, `/\\${other}/`],
        // A user name that spells this origin, before the other one.
        [303, `http://127.0.0.1:${target.port}@${other}/`],
        // With the credential in the query, for the suite to send on.
        [308, `http://${other}/login?user=${encodeURIComponent(credentialOf(request))}`],
      ];
      const [status, location] = redirects[answered % redirects.length] ?? [302, '/'];
      answered += 1;
      response.writeHead(status, { location, 'content-type': 'text/html' });
      response.end(`<a href="${location}">moved</a>`);
    });
    const result = await run(['--base-url', target.url, '--token', TOKEN]);
    expect(answered).toBeGreaterThanOrEqual(5);
    expect({ requests: elsewhere.requests, connections: elsewhere.connections }).toEqual({ requests: [], connections: 0 });
    const text = await everything(result);
    expect(tokenFormsIn(text, TOKEN)).toEqual([]);
    expect(await fileOf(result, 'recording.json')).toMatch(/"location": "http:\/\/127\.0\.0\.1:\d+\/login\?user=<redacted>/);
  });
});

describe('a front that several servers share, and shows each the last credential it saw', () => {
  const FIRST = 'First-Fleet-Token-5b81d0';
  const SECOND = 'Second-Fleet-Token-c247e9';

  /** Two reference servers under /a and /b of one front, which tells every answer the previous request's credential. */
  async function sharedFront(): Promise<LoopbackServer> {
    const [first, second] = await Promise.all([
      startReferenceServer({ token: FIRST, pathPrefix: '/a' }),
      startReferenceServer({ token: SECOND, pathPrefix: '/b' }),
    ]);
    cleanUpAfterAll(first.close);
    cleanUpAfterAll(second.close);
    let last = '';
    const front = await serveHttp((request, response) => {
      const shown = last;
      // A header value holds printable ASCII only: the malformed credentials the suite sends are shown with ? instead.
      last = credentialOf(request).replace(/[^\x20-\x7e]/g, '?');
      response.setHeader('x-last-user', shown);
      response.setHeader('x-last-session', Buffer.from(shown).toString('base64'));
      forward(request, response, new URL(request.url?.startsWith('/b') ? second.url : first.url));
    });
    cleanUpAfterAll(front.close);
    return front;
  }

  async function expectNeitherToken(result: CliRun): Promise<void> {
    const text = await everything(result);
    expect({ first: tokenFormsIn(text, FIRST), second: tokenFormsIn(text, SECOND) }).toEqual({ first: [], second: [] });
  }

  test.concurrent('a matrix of both: each target redacts the other target token as well as its own', async () => {
    const front = await sharedFront();
    const folder = await tempFolder('conformance-shared-front-');
    const targets = join(folder, 'targets.json');
    await writeFile(
      targets,
      JSON.stringify([
        { name: 'first', baseUrl: `${front.url}/a`, tokenEnv: 'FIRST_TOKEN' },
        { name: 'second', baseUrl: `${front.url}/b`, tokenEnv: 'SECOND_TOKEN' },
      ]),
    );
    const result = await inProcess.run(['--targets', targets, '--target-concurrency', '1'], { FIRST_TOKEN: FIRST, SECOND_TOKEN: SECOND });
    cleanUpAfterAll(result.cleanup);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    await expectNeitherToken(result);
    expect(await fileOf(result, 'second/recording.json')).toMatch(/"x-last-user": "<redacted>/);
  });

  test.concurrent('--compare-to: each side redacts the other side token as well as its own', async () => {
    const front = await sharedFront();
    const result = await inProcess.run([
      '--base-url',
      `${front.url}/a`,
      '--token',
      FIRST,
      '--compare-to',
      `${front.url}/b`,
      '--compare-token',
      SECOND,
    ]);
    cleanUpAfterAll(result.cleanup);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    await expectNeitherToken(result);
  });
});
