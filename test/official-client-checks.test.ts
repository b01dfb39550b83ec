import { describe, expect, test } from 'vitest';
import { bodyText, parseJson } from '../src/exchange/body-text.js';
import type { Exchange } from '../src/exchange/exchange.js';
import {
  CLIENT_MAX_NESTING,
  clientDecode,
  dataArray,
  exactly200,
  intCasts,
  phpIntCast,
  statusNotError,
  statusSet,
} from '../src/judge/checks/php-client.js';
import { describeResponse } from '../src/judge/checks/outcome.js';
import { answeredWith, bodyOf, recordedAnswer } from './helpers/answers.js';

// The checks of --profile official-client, called on answers shaped as servers send them: what the vendor's PHP client
// (json_decode, then Client.php's and the models' reading of the envelope) makes of each.
const VALID = recordedAnswer('valid /api/ticket/status/1?');
const VALID_BODY = VALID.response.bodyText;
const DECODES = 'json_decode($body, true, 512, JSON_THROW_ON_ERROR) returns the body';

const answer = (body: string, status = 200, headers: Record<string, string> = { 'content-type': 'application/json' }): Exchange =>
  answeredWith(VALID, { status, body, headers });
/** The valid envelope with data's fields changed as given. */
const withData = (changes: Record<string, unknown>): Record<string, unknown> => ({ ...bodyOf(VALID).data, ...changes });
/** The valid answer nested `depth` levels deep by arrays (or objects) in data's icon, the envelope and data included. */
const nestedTo = (depth: number, open = '[', close = ']'): Exchange => {
  const inside = depth - 3;
  const icon = `${open.repeat(inside)}${open[0]}${close}${close.repeat(inside)}`;
  return answer(VALID_BODY.replace('"data":{', `"data":{"icon":${icon},`));
};
/** An answer whose bytes are not UTF-8 (a Latin-1 "é" in the name), read as the HTTP client reads it. */
const latin1Name = (): Exchange => {
  const bytes = Buffer.from(VALID_BODY.replace('"Open"', '"Ouvert \u00e9"'), 'latin1');
  const text = bodyText(bytes);
  return { request: VALID.request, response: { ...VALID.response, bodyText: text.text, bytes: bytes.length, json: parseJson(text) } };
};
const decodeOf = (exchange: Exchange) => clientDecode(exchange, 'json_decode reads the answer');
const failureOf = (exchange: Exchange): string => {
  const decoded = decodeOf(exchange);
  return decoded.ok ? 'decoded' : decoded.outcome.actual;
};

describe("json_decode: the client's first step", () => {
  test('the reference answer decodes to the body the server sent', () => {
    expect(decodeOf(VALID)).toStrictEqual({
      ok: true,
      value: JSON.parse(VALID_BODY) as unknown,
      outcome: { ok: true, description: 'json_decode reads the answer', expected: DECODES, actual: 'decoded' },
    });
  });

  test('a byte order mark before the JSON (a file saved "UTF-8 with BOM") is a syntax error to PHP', () => {
    expect(decodeOf(answer(`\uFEFF${VALID_BODY}`))).toStrictEqual({
      ok: false,
      outcome: {
        ok: false,
        description: 'json_decode reads the answer',
        expected: DECODES,
        actual: 'a UTF-8 byte order mark (EF BB BF) before the JSON: json_decode throws "Syntax error"',
      },
    });
  });

  test('a body that is not UTF-8 is malformed to PHP', () => {
    expect(failureOf(latin1Name())).toBe('the body is not valid UTF-8: json_decode throws "Malformed UTF-8 characters"');
  });

  test("a PHP notice printed before the JSON, or a server's comment after it, is a syntax error that counts the noise", () => {
    const notice = '<br />\n<b>Deprecated</b>:  Creation of dynamic property in <b>/var/www/app/Model.php</b> on line <b>12</b><br />\n';
    const before = answer(`${notice}${VALID_BODY}`);
    expect(failureOf(before)).toBe(
      `${notice.length} character(s) before and 0 after the JSON: json_decode throws "Syntax error" (${describeResponse(before)})`,
    );
    const after = answer(`${VALID_BODY}\n<!-- served in 12 ms -->`);
    expect(failureOf(after)).toMatch(/^0 character\(s\) before and 25 after the JSON: json_decode throws "Syntax error" \(HTTP 200 /);
  });

  test('an empty body, or one of white space only, is a syntax error and said to be empty', () => {
    expect(failureOf(answer(''))).toMatch(/^an empty body: json_decode throws "Syntax error" \(.+\)$/);
    expect(failureOf(answer(' \r\n'))).toMatch(/^an empty body: json_decode throws "Syntax error" \(.+\)$/);
  });

  test("a web server's HTML page is a syntax error that shows the page", () => {
    const page = answer('<html><body><h1>502 Bad Gateway</h1></body></html>', 502, { 'content-type': 'text/html' });
    expect(failureOf(page)).toBe(
      `HTTP 502 (text/html) <html><body><h1>502 Bad Gateway</h1></body></html>: json_decode throws "Syntax error" (${
        page.response.json.ok ? '' : page.response.json.error
      })`,
    );
  });

  test('511 levels of nesting decode; 512 exceed the depth of 512 json_decode is called with, of arrays or of objects', () => {
    expect(decodeOf(nestedTo(CLIENT_MAX_NESTING)).ok).toBe(true);
    const arrays = decodeOf(nestedTo(CLIENT_MAX_NESTING + 1));
    expect(arrays.ok).toBe(false);
    expect(arrays.outcome).toStrictEqual({
      ok: false,
      description: 'json_decode reads the answer',
      expected: DECODES,
      actual: 'JSON nested 512 levels deep: json_decode throws "Maximum stack depth exceeded"',
    });
    expect(failureOf(nestedTo(CLIENT_MAX_NESTING + 1, '{"a":', '}'))).toBe(
      'JSON nested 512 levels deep: json_decode throws "Maximum stack depth exceeded"',
    );
    expect(decodeOf(nestedTo(CLIENT_MAX_NESTING, '{"a":', '}')).ok).toBe(true);
  });

  test("JSON deeper than the suite parses is judged from its text, and marked as beyond the suite's cap", () => {
    const decoded = decodeOf(nestedTo(CLIENT_MAX_NESTING + 2));
    expect(decoded.outcome).toStrictEqual({
      ok: false,
      description: 'json_decode reads the answer',
      expected: DECODES,
      actual: 'JSON nested 513 levels deep: json_decode throws "Maximum stack depth exceeded"',
      beyondDepthCap: true,
    });
  });

  test("a body with more values than the suite reads fails with the suite's reason, even nested as deep as the client reads", () => {
    const deep = nestedTo(CLIENT_MAX_NESTING).response.bodyText;
    const many = answer(deep.replace('"data":{', `"data":{"list":[${Array(25_000).fill(0).join(',')}],`));
    const decoded = decodeOf(many);
    expect(decoded.ok).toBe(false);
    expect(decoded.outcome.beyondDepthCap).toBeUndefined();
    expect(decoded.outcome.actual).toMatch(/^the JSON holds about \d+ values, more than the 20000 the suite reads of one answer/);
  });

  test('a \\u escape of half a surrogate pair, in a value or a key, throws; a whole pair decodes', () => {
    const lone = (name: string): Exchange => answer(VALID_BODY.replace('"Open"', `"${name}"`));
    const unpaired = (text: string): string =>
      `a \\u escape of half a surrogate pair in ${text}: json_decode throws "Single unpaired UTF-16 surrogate in unicode escape"`;
    expect(failureOf(lone('Open \\ud800'))).toBe(unpaired('"Open \\ud800"'));
    expect(failureOf(lone('\\udc00 Open'))).toBe(unpaired('"\\udc00 Open"'));
    expect(failureOf(lone('\\udc00\\ud800'))).toBe(unpaired('"\\udc00\\ud800"'));
    expect(failureOf(lone('Open \\ud83d\\ude00'))).toBe('decoded');
    expect(failureOf(lone('Open 😀'))).toBe('decoded');
    const inTranslation = answer(VALID_BODY.replace('"Offen"', '"Offen \\ud83d"'));
    expect(failureOf(inTranslation)).toBe(unpaired('"Offen \\ud83d"'));
    const inKey = answer(VALID_BODY.replace('"colour"', '"colour\\udfff"'));
    expect(failureOf(inKey)).toBe(unpaired('"colour\\udfff"'));
  });
});

describe('Client.php: the HTTP code and the envelope', () => {
  test('only HTTP 200 is read; 201, 203 or 204 throw whatever the body', () => {
    expect(exactly200(VALID, 'HTTP 200')).toEqual({ ok: true, description: 'HTTP 200', expected: 'HTTP 200 exactly', actual: 'HTTP 200' });
    for (const status of [201, 203, 204]) {
      expect(exactly200(answer(VALID_BODY, status), 'HTTP 200')).toMatchObject({ ok: false, actual: `HTTP ${status}` });
    }
  });

  test('status must be set: absent or null throws, any other value (false included) is read', () => {
    const expected = 'a JSON object with status set, not null';
    expect(statusSet(JSON.parse(VALID_BODY), 'status set')).toEqual({
      ok: true,
      description: 'status set',
      expected,
      actual: 'status: "success"',
    });
    expect(statusSet({ status: false, data: {} }, 'status set')).toMatchObject({ ok: true, actual: 'status: false' });
    expect(statusSet({ message: null, data: {} }, 'status set')).toMatchObject({ ok: false, actual: 'status: absent' });
    expect(statusSet({ status: null, data: {} }, 'status set')).toMatchObject({ ok: false, actual: 'status: null' });
    // A JSON list decodes to a PHP array without the key.
    expect(statusSet([{ status: 'success' }], 'status set')).toMatchObject({ ok: false, actual: 'status: absent' });
  });

  test('a body that decodes to no array at all (a string, a number, null) has no status', () => {
    expect(statusSet('Open', 'status set')).toEqual({
      ok: false,
      description: 'status set',
      expected: 'a JSON object with status set, not null',
      actual: 'not a JSON object: "Open"',
    });
    expect(statusSet(null, 'status set')).toMatchObject({ ok: false, actual: 'not a JSON object: null' });
    expect(statusSet(12, 'status set')).toMatchObject({ ok: false, actual: 'not a JSON object: 12' });
  });

  test('status "error" throws even with HTTP 200; any other status, or none, does not', () => {
    expect(statusNotError({ status: 'error', message: 'Unauthenticated.', data: [] }, 'not error')).toEqual({
      ok: false,
      description: 'not error',
      expected: 'status other than "error"',
      actual: 'status: "error"',
    });
    expect(statusNotError(JSON.parse(VALID_BODY), 'not error')).toMatchObject({ ok: true, actual: 'status: "success"' });
    expect(statusNotError({ status: 'Error' }, 'not error').ok).toBe(true);
    expect(statusNotError('error', 'not error')).toMatchObject({ ok: true, actual: 'status: absent' });
  });

  test('data goes to createStatusModel(array $data): an object or a list is read, null or a string is a TypeError', () => {
    expect(dataArray(JSON.parse(VALID_BODY), 'data')).toEqual({
      ok: true,
      description: 'data',
      expected: 'data: a JSON object',
      actual: `data: ${JSON.stringify(bodyOf(VALID).data)}`,
    });
    expect(dataArray({ status: 'success', data: [] }, 'data')).toMatchObject({ ok: true, actual: 'data: []' });
    const typeError = ': createStatusModel(array $data) throws a TypeError';
    expect(dataArray({ status: 'success', message: null, data: null }, 'data')).toMatchObject({
      ok: false,
      actual: `data: null${typeError}`,
    });
    expect(dataArray({ status: 'success', data: 'Open' }, 'data')).toMatchObject({ ok: false, actual: `data: "Open"${typeError}` });
    expect(dataArray({ status: 'success' }, 'data')).toMatchObject({ ok: false, actual: `data: absent${typeError}` });
    expect(dataArray([{ data: {} }], 'data')).toMatchObject({ ok: false, actual: `data: absent${typeError}` });
  });
});

describe("the models' (int) casts", () => {
  test("PHP 8's (int) of numbers, booleans, arrays and null", () => {
    expect([phpIntCast(true), phpIntCast(false), phpIntCast(null), phpIntCast(undefined)]).toEqual([1, 0, 0, 0]);
    expect([phpIntCast(1.9), phpIntCast(-1.9), phpIntCast(7)]).toEqual([1, -1, 7]);
    expect([phpIntCast(2 ** 63), phpIntCast(-1e19), phpIntCast(2 ** 62)]).toEqual(['undefined', 'undefined', 2 ** 62]);
    expect([phpIntCast([]), phpIntCast([0]), phpIntCast({}), phpIntCast({ a: 0 })]).toEqual([0, 1, 0, 1]);
  });

  test("PHP 8's (int) of strings: the leading number, white space before it allowed, else 0", () => {
    const cases: [string, number | 'undefined'][] = [
      ['12', 12],
      ['12abc', 12],
      ['abc', 0],
      ['', 0],
      [' \t\n\r\v\f12', 12],
      ['+5', 5],
      ['-3.7', -3],
      ['.5', 0],
      ['7.', 7],
      ['1e3', 1000],
      ['1E3', 1000],
      ['1.25e2', 125],
      ['.25e2', 25],
      ['2e+2', 200],
      ['5e-1', 0],
      ['1e30', 'undefined'],
      ['12 34', 12],
      ['x12', 0],
      ['- 3', 0],
    ];
    expect(cases.map(([text]) => [text, phpIntCast(text)])).toEqual(cases);
  });

  test('the reference status keeps every int-cast field', () => {
    expect(intCasts(bodyOf(VALID).data, 'int casts')).toEqual({
      ok: true,
      description: 'int casts',
      expected: "integers (or their strings): values PHP's (int) cast keeps",
      actual: 'every such field is kept',
    });
  });

  test('what (int) keeps: integers and their strings (white space around allowed), whole floats, booleans, null, absent fields', () => {
    const kept = withData({
      id: '\v1\v',
      auto_close: ' 1\n',
      order: '+1',
      created_at: '1486732738.00',
      updated_at: '1.486732738e+09',
      translations: [{ id: true, status_id: '1e0' }, 'not an object', null, { id: '.50e1', status_id: null }],
    });
    expect(intCasts(kept, 'int casts')).toMatchObject({ ok: true, actual: 'every such field is kept' });
    expect(intCasts(withData({ translations: 'none' }), 'int casts').ok).toBe(true);
  });

  test('what (int) changes, named field by field with what the client reads instead', () => {
    const changed = withData({
      id: 'abc',
      auto_close: 1.5,
      order: '12abc',
      created_at: '2017-02-10T13:18:58Z',
      updated_at: 2 ** 63,
      translations: [{ status_id: 1 }, { id: [1], status_id: '1.5' }],
    });
    expect(intCasts(changed, 'int casts')).toEqual({
      ok: false,
      description: 'int casts',
      expected: "integers (or their strings): values PHP's (int) cast keeps",
      actual: [
        'id "abc" is read as 0',
        'auto_close 1.5 is read as 1',
        'order "12abc" is read as 12',
        'created_at "2017-02-10T13:18:58Z" is read as 2017',
        'updated_at 9223372036854776000 is read as undefined',
        'translations[1].id [1] is read as 1',
        'translations[1].status_id "1.5" is read as 1',
      ].join('; '),
    });
  });

  test('what PHP reads otherwise: an integer it cannot hold, a hexadecimal string, an object, an empty string', () => {
    expect(intCasts(withData({ id: '0x10' }), 'int casts')).toMatchObject({ ok: false, actual: 'id "0x10" is read as 0' });
    expect(intCasts(withData({ id: '9223372036854775808' }), 'int casts')).toMatchObject({
      ok: false,
      actual: 'id "9223372036854775808" is read as undefined',
    });
    expect(intCasts(withData({ id: '-1e19' }), 'int casts')).toMatchObject({ ok: false, actual: 'id "-1e19" is read as undefined' });
    expect(intCasts(withData({ id: -1e19 }), 'int casts')).toMatchObject({
      ok: false,
      actual: 'id -10000000000000000000 is read as undefined',
    });
    expect(intCasts(withData({ id: { value: 1 } }), 'int casts')).toMatchObject({ ok: false, actual: 'id {"value":1} is read as 1' });
    expect(intCasts(withData({ id: '' }), 'int casts')).toMatchObject({ ok: false, actual: 'id "" is read as 0' });
  });
});
