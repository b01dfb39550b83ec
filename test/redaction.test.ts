import { describe, expect, test } from 'vitest';
import { REDACTED, redactedJson } from '../src/exchange/credential-fields.js';
import { isOrdinaryWord } from '../src/secrets/forms.js';
import { createSecretScanner } from '../src/secrets/scanner.js';

const TOKEN = 'Sup3r/Secret+Token-93f1c2';
const scanner = createSecretScanner([TOKEN]);
const base64 = (text: string): string => Buffer.from(text).toString('base64');
const jsonUnicode = (text: string): string => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every way a target might write the token back, each surrounded by ordinary text. */
const echoes: [string, string][] = [
  ['verbatim', TOKEN],
  ['upper case', TOKEN.toUpperCase()],
  ['lower case', TOKEN.toLowerCase()],
  ['JSON with \\/', TOKEN.replaceAll('/', '\\/')],
  ['JSON \\u escapes', jsonUnicode(TOKEN)],
  ['JSON \\u escapes in upper-case hex', jsonUnicode(TOKEN).toUpperCase().replaceAll('\\U', '\\u')],
  ['URL-encoded, upper case', encodeURIComponent(TOKEN)],
  ['URL-encoded, lower case', encodeURIComponent(TOKEN).toLowerCase()],
  ['every byte URL-encoded', [...Buffer.from(TOKEN)].map((byte) => `%${byte.toString(16)}`).join('')],
  ['HTML character references', [...TOKEN].map((char) => `&#${char.charCodeAt(0)};`).join('')],
  ['hex', Buffer.from(TOKEN).toString('hex')],
  ['hex, upper case', Buffer.from(TOKEN).toString('hex').toUpperCase()],
  ['base64', base64(TOKEN)],
  ['base64 after one byte', base64(`a${TOKEN}`)],
  ['base64 after two bytes', base64(`ab${TOKEN}`)],
  ['base64url after two bytes', Buffer.from(`ab${TOKEN}`).toString('base64url')],
  ['a Basic credential, JSON-escaped', base64(`${TOKEN}:x`).replaceAll('/', '\\/')],
  ['a header name', `x-echo-${TOKEN.toLowerCase()}: yes`],
];

test.each(echoes)('the token written %s is found and redacted', (_form, echo) => {
  const text = `{"seen":"${echo}","next":1}`;
  expect(scanner.find(text)).toBe('the API token');
  const redacted = scanner.redact(text);
  expect(redacted).toContain(REDACTED);
  expect(scanner.find(redacted)).toBeUndefined();
  expect(redacted).toMatch(/^\{"seen":"/);
  expect(redacted).toMatch(/","next":1\}$/);
});

test('an echoed Authorization value is redacted whole: no tail of its base64 is left', () => {
  for (const password of ['x', '', 'a:b:c', 'p'.repeat(40)]) {
    const credential = base64(`${TOKEN}:${password}`);
    for (const echo of [`Authorization: Basic ${credential}`, `"authorization":"Basic ${credential.replaceAll('/', '\\/')}"`]) {
      expect(scanner.redact(echo)).toMatch(/Basic <redacted>"?$/);
    }
    // Not as a header: the base64 word that carries the token goes whole.
    expect(scanner.redact(`echo: ${credential};`)).toBe(`echo: ${REDACTED};`);
  }
});

test('a token with characters outside ASCII is found as UTF-8, \\u escapes and percent-encoding', () => {
  const token = 'Schlüssel-ñ-9f3a';
  const own = createSecretScanner([token]);
  for (const echo of [
    token,
    token.toUpperCase(),
    JSON.stringify(token).slice(1, -1).replace('ü', '\\u00fc').replace('ñ', '\\u00F1'),
    encodeURIComponent(token),
    encodeURIComponent(token).toLowerCase(),
    base64(`${token}:x`),
  ]) {
    expect({ echo, redacted: own.redact(`<${echo}>`) }).toEqual({ echo, redacted: `<${REDACTED}>` });
  }
});

test("tokens that are ordinary words are redacted from what a target sends, and never screened in the suite's own words", () => {
  for (const word of ['data', 'Open', 'test', 'secret', 'token', 'success']) {
    expect(isOrdinaryWord(word)).toBe(true);
    const own = createSecretScanner([word]);
    expect(own.redact(`{"x":"${word.toUpperCase()}","y":"${base64(`${word}:x`)}"}`)).toBe(`{"x":"${REDACTED}","y":"${REDACTED}"}`);
    expect(own.find(`A status named "Open" exists; the data of the test; check the token and the secret`)).toBeUndefined();
    // Its encoded forms are never ordinary text: the suite writing one is still a leak.
    expect(own.find(`sent ${Buffer.from(word).toString('hex')}`)).toBe('the API token');
  }
  for (const distinctive of [TOKEN, 'a1b2c3d4e5', 'Tok&en<"|93f1']) expect(isOrdinaryWord(distinctive)).toBe(false);
});

test('text without the token is left as it was, and an empty list of tokens finds nothing', () => {
  const text = 'Sup3r/Secret+Token-93f1 is close, but not it: %zz \\u12 &#; \\';
  expect(scanner.redact(text)).toBe(text);
  expect(scanner.find(text)).toBeUndefined();
  expect(createSecretScanner([]).find(TOKEN)).toBeUndefined();
  expect(createSecretScanner(['']).redact(TOKEN)).toBe(TOKEN);
});

test('one scanner finds any of a thousand tokens, duplicates folded', () => {
  const tokens = Array.from({ length: 1000 }, (_, index) => `target-${index.toString(36).padStart(4, '0')}-k3y9`);
  const many = createSecretScanner([...tokens, ...tokens]);
  // Not a near miss either: those hold all but one character of a token, and are secrets too.
  const filler = 'target-0000-k3x ordinary text, almost a token. '.repeat(200);
  expect(many.find(filler)).toBeUndefined();
  for (const index of [0, 499, 999]) {
    const token = tokens[index] ?? '';
    expect(many.find(`${filler}${base64(`${token}:x`)}${filler}`)).toBe('the API token');
    expect(many.redact(`${filler}${token.toUpperCase()}`)).toBe(`${filler}${REDACTED}`);
  }
});

test('the near misses the suite sends as wrong tokens are secrets too, in every form, but not for an ordinary-word token', () => {
  const token = 'Kq81-zzTop-77';
  const scanner = createSecretScanner([token]);
  const truncated = token.slice(0, -1);
  for (const echoed of [truncated, JSON.stringify(`${truncated}/`), base64(`${truncated}:x`), base64(`conforma:${truncated}`)]) {
    expect(scanner.find(`said: ${echoed}`)).toBe('the API token');
  }
  expect(scanner.redact(`wrong token ${truncated}.`)).toBe(`wrong token ${REDACTED}.`);
  expect(createSecretScanner(['data']).find('the dat was read')).toBeUndefined();
});

describe('a value given under the name of a credential is redacted, whatever it is', () => {
  const named: [string, string, string][] = [
    [
      'JSON keys, the Authorization keeping its scheme',
      '{"authorization":"Basic Y29uZm9ybWFuY2U6eA==","token":"t0k3n","x":"kept"}',
      '{"authorization":"Basic <redacted>","token":"<redacted>","x":"kept"}',
    ],
    [
      'PSR-7 arrays, a number',
      '{"x-api-key":["k1","k2"],"api_key":12345678,"n":1}',
      '{"x-api-key":["<redacted>","<redacted>"],"api_key":"<redacted>","n":1}',
    ],
    [
      'an object under the name',
      '{"cookies":{"sid":"abc","theme":"dark"},"ok":true}',
      '{"cookies":{"sid":"<redacted>","theme":"<redacted>"},"ok":true}',
    ],
    ['camelCase', '{"accessToken":"a1","sessionId":"s1"}', '{"accessToken":"<redacted>","sessionId":"<redacted>"}'],
    [
      'JSON inside a JSON string',
      '{"debug":"{\\"PHP_AUTH_PW\\":\\"pw \\\\\\"quoted\\\\\\"\\",\\"user\\":\\"kept\\"}"}',
      '{"debug":"{\\"PHP_AUTH_PW\\":\\"<redacted>\\",\\"user\\":\\"kept\\"}"}',
    ],
    [
      "PHP's var_dump",
      'array(2) {\n  ["HTTP_AUTHORIZATION"]=>\n  string(30) "Basic Y29uZm9ybWFuY2U6eA=="\n  ["PHP_AUTH_PW"]=>\n  string(0) ""\n}',
      'array(2) {\n  ["HTTP_AUTHORIZATION"]=>\n  string(30) "Basic <redacted>"\n  ["PHP_AUTH_PW"]=>\n  string(0) ""\n}',
    ],
    [
      "PHP's print_r",
      'Array\n(\n    [PHP_AUTH_PW] => pw\n    [HTTP_HOST] => kept\n)',
      'Array\n(\n    [PHP_AUTH_PW] => <redacted>\n    [HTTP_HOST] => kept\n)',
    ],
    [
      "PHP's var_export",
      "array (\n  'HTTP_COOKIE' => 'sid=abc; theme=dark',\n)",
      "array (\n  'HTTP_COOKIE' => 'sid=<redacted>; theme=<redacted>',\n)",
    ],
    [
      'header lines',
      'Host: kept\r\nCookie: sid=abc; theme=dark\r\nX-CSRF-Token: c5rf\r\n',
      'Host: kept\r\nCookie: sid=<redacted>; theme=<redacted>\r\nX-CSRF-Token: <redacted>\r\n',
    ],
    [
      'a Set-Cookie line: the attributes kept, an Expires date with its comma too',
      'Set-Cookie: sid=abc; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly, other=def',
      'Set-Cookie: sid=<redacted>; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly, other=<redacted>',
    ],
    [
      'query fields',
      '/login?user=kept&access_token=abc&api_key=k#kept',
      '/login?user=kept&access_token=<redacted>&api_key=<redacted>#kept',
    ],
    ['a field holding an Authorization', 'a=1; authorization=Basic Y29uZm9y; b=2', 'a=1; authorization=Basic <redacted>; b=2'],
  ];

  test.each(named)('%s', (_form, text, redacted) => {
    expect(scanner.redact(text)).toBe(redacted);
  });

  test('every word of a credential name, in any spelling and letter case, has its value redacted', () => {
    const names = [
      'PHPSESSID',
      'session.id',
      'Passwd',
      'PASSWORD',
      'PHP-AUTH-USER',
      'phpAuthDigest',
      'X-XSRF-TOKEN',
      'ApiKey',
      'client_secret',
      'Proxy-Authorization',
      'SET-COOKIE',
    ];
    for (const name of names) expect(scanner.redact(`{"${name}":"v4lue"}`)).toBe(`{"${name}":"${REDACTED}"}`);
  });

  test("a refusal's words are read once and left, any credential's name goes on to the search for its value", () => {
    for (const text of ['WWW-Authenticate', 'Basic realm="api"', 'Failed to authenticate: invalid authentication credentials'])
      expect(scanner.holdsNothing(text)).toBe(true);
    for (const name of ['HTTP_AUTHORIZATION', 'PHP_AUTH_PW', 'php.auth.user', 'PhpAuthDigest', 'Set-Cookie', 'X-Api-Key', 'PHPSESSID'])
      expect(scanner.holdsNothing(`{"${name}":"v4lue"}`)).toBe(false);
  });

  test('names of other things, and prose, are left as they are', () => {
    for (const text of [
      '{"status":"error","message":"Failed to authenticate because of bad credentials or an invalid authorization header.","data":[]}',
      '{"name":"token","tokens":3,"token_type":"Bearer","expires_in":3600,"passwords_expire":true}',
      'Check the token: it may have expired',
      'WWW-Authenticate: Basic realm="api"',
      '{"password":null,"token":false}',
    ])
      expect(scanner.redact(text)).toBe(text);
  });
});

describe('a parsed JSON body is kept with its secrets redacted, and as the same value when it holds none', () => {
  const kept = (value: unknown): unknown => redactedJson(value, scanner.redact);

  test.each([
    ['an envelope', { status: 'success', data: [{ id: 1, name: 'Open', translations: { fr: 'Ouvert' } }], message: null }],
    ['names of other things', { token_type: 'Bearer', tokens: 3, password: null, expires_in: 3600, nested: [[true, false, 0]] }],
    ['scalars', 'plain text'],
    ['an empty object and array', { empty: {}, none: [] }],
  ])('%s: nothing to redact, the same value back', (_name, value) => {
    expect(kept(value)).toBe(value);
  });

  test.each([
    [
      'the token deep in an array',
      { data: [{ id: 1 }, { echo: ['x', `Bearer ${TOKEN}`] }] },
      { data: [{ id: 1 }, { echo: ['x', `Bearer ${REDACTED}`] }] },
    ],
    ['the token as a key', { [TOKEN]: 1, kept: 2 }, { [REDACTED]: 1, kept: 2 }],
    ['a number under the name of a credential', { api_key: 12345678, n: 1 }, { api_key: REDACTED, n: 1 }],
    ['a value under the name of a credential', { meta: { accessToken: 'a1' } }, { meta: { accessToken: REDACTED } }],
  ])('%s: a new value, redacted, and the one given unchanged', (_name, value, redacted) => {
    const before = structuredClone(value);
    const result = kept(value);
    expect(result).not.toBe(value);
    expect(result).toEqual(redacted);
    expect(value).toEqual(before);
  });
});

describe('the password given with --password', () => {
  const PASSWORD = 'Hunter2-Pa55word-7e1d';
  const withPassword = createSecretScanner([TOKEN], [PASSWORD]);

  test('is a secret in every form, named as the password', () => {
    for (const echo of [
      PASSWORD,
      PASSWORD.toUpperCase(),
      Buffer.from(PASSWORD).toString('hex'),
      base64(`conformance-invalid-token-0000:${PASSWORD}`),
    ]) {
      expect(withPassword.find(`seen ${echo}.`)).toBe('the password');
      expect(withPassword.find(withPassword.redact(`seen ${echo}.`))).toBeUndefined();
    }
    expect(withPassword.find(`${TOKEN} ${PASSWORD}`)).toBe('the API token');
  });

  test('one shorter than a token may be is not looked for: the default is a single letter', () => {
    const withDefault = createSecretScanner([TOKEN], ['x', 'abc']);
    expect(withDefault.redact('x 78 eA abc')).toBe('x 78 eA abc');
  });
});

test('the hex of an Authorization value that carries the token in base64 is found and redacted', () => {
  for (const password of ['x', 'Hunter2-Pa55word-7e1d']) {
    const dumped = Buffer.from(`authorization: Basic ${base64(`${TOKEN}:${password}`)}\r\n`).toString('hex');
    expect(scanner.find(`{"raw":"${dumped}"}`)).toBe('the API token');
    expect(scanner.find(scanner.redact(`{"raw":"${dumped}"}`))).toBeUndefined();
  }
});
