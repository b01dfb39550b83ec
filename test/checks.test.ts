import type { ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { accepted, refused } from '../src/judge/checks/auth.js';
import { classifyExchange } from '../src/classify/classify.js';
import type { Reach } from '../src/classify/types.js';
import type { CredentialVariant } from '../src/exchange/credentials.js';
import { alikeAsSent, canonicalJson } from '../src/hash.js';
import { missingListingControl, missingStatusControl } from '../src/judge/checks/control.js';
import { bodyIsJson, envelopeField, noByteOrderMark } from '../src/judge/checks/envelope.js';
import { translationsUnchanged, untranslatedFieldsUnchanged } from '../src/judge/checks/lang.js';
import { askedLang, describeResponse, show } from '../src/judge/checks/outcome.js';
import { formatSchemaErrors, schemaDescription, validator } from '../src/validators/schemas.js';
import {
  about,
  distinctServed,
  nameIs,
  statusField,
  statusIdIs,
  translationField,
  translationsBelongToStatus,
} from '../src/judge/checks/status.js';
import { timestampUnit } from '../src/judge/checks/timestamps.js';
import type { Exchange } from '../src/exchange/exchange.js';
import { dataOf, isObject, jsonBody, translationsOf } from '../src/exchange/json-body.js';
import { answeredWith, bodyOf, recordedAnswer } from './helpers/answers.js';

// Answers a server really gave (the reference server's recording), and the same requests answered the ways real
// deployments answer them: production error envelopes, web server pages, a CDN's byte order mark.
const VALID = recordedAnswer('valid /api/ticket/status/1?');
const FRENCH = recordedAnswer('valid /api/ticket/status/1?lang=fr');
const WRONG_TOKEN = recordedAnswer('wrong-token /api/ticket/status/1?');
const NOT_FOUND = recordedAnswer('valid /api/ticket/status/2147483646?');
const LISTING = recordedAnswer('valid /api/selfservice/type?');
const LISTING_NO_HEADER = recordedAnswer('no-header /api/selfservice/type?');
const STRIPPED = recordedAnswer('valid /api/ticket/status/1?', 'authorization-stripped');
const STRIPPED_LISTING = recordedAnswer('valid /api/selfservice/type?', 'authorization-stripped');
const COLOUR_MISSING = recordedAnswer('valid /api/ticket/status/1?', 'colour-missing');

const VALID_BODY = VALID.response.bodyText;
const APACHE_404 =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n';
const HTML = { 'content-type': 'text/html; charset=iso-8859-1', server: 'Apache/2.4.62 (Debian)' };

const answer = (status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Exchange =>
  answeredWith(VALID, { status, body, headers });
/** The valid answer with some fields of data changed (undefined removes one). */
const withData = (changes: Record<string, unknown>, from: Exchange = VALID): Exchange => {
  const body = bodyOf(from);
  return answeredWith(from, { body: JSON.stringify({ ...body, data: { ...body.data, ...changes } }) });
};
const withBody = (body: unknown, from: Exchange = VALID): Exchange => answeredWith(from, { body: JSON.stringify(body) });
const parseError = (exchange: Exchange): string => (exchange.response.json.ok ? '' : exchange.response.json.error);

describe('how an answer is shown in a message', () => {
  test('a value is shown as JSON, an absent one as "absent", a long one cut at 300 characters', () => {
    expect(show(undefined)).toBe('absent');
    expect(show(null)).toBe('null');
    expect(show('green')).toBe('"green"');
    expect(show({ locale: 'fr' })).toBe('{"locale":"fr"}');
    expect(show('x'.repeat(298))).toBe(`"${'x'.repeat(298)}"`);
    expect(show('x'.repeat(299))).toBe(`"${'x'.repeat(299)}`.slice(0, 300) + '…');
  });

  test('a response is its code, its type and its body, cut at 300 characters', () => {
    expect(describeResponse(VALID)).toBe(`HTTP 200 (application/json) ${VALID_BODY}`);
    expect(describeResponse(answer(502, '', {}))).toBe('HTTP 502 (no Content-Type) <empty body>');
    const long = 'y'.repeat(301);
    expect(describeResponse(answer(500, long, { 'content-type': 'text/plain' }))).toBe(`HTTP 500 (text/plain) ${'y'.repeat(300)}…`);
    expect(describeResponse(answer(500, long.slice(1), { 'content-type': 'text/plain' }))).toBe(`HTTP 500 (text/plain) ${'y'.repeat(300)}`);
  });

  test("the language a request asked for is its query's lang, as its URL has it, and none without one", () => {
    expect(askedLang(FRENCH)).toBe('fr');
    expect(askedLang(FRENCH)).toBe(new URL(FRENCH.request.url).searchParams.get('lang'));
    expect(askedLang(VALID)).toBeNull();
    const asked = (path: string): Exchange => ({ ...VALID, request: { ...VALID.request, path } });
    expect(askedLang(asked('/api/ticket/status/1?'))).toBeNull();
    expect(askedLang(asked('/support/api/ticket/status/1?x=1&lang=pt%2DBR'))).toBe('pt-BR');
    expect(askedLang(asked('/api/ticket/status/1?language=de'))).toBeNull();
  });

  test('the data object is found only in a JSON object whose data is an object', () => {
    expect(dataOf(VALID)).toEqual(bodyOf(VALID).data);
    expect(dataOf(WRONG_TOKEN)).toBeUndefined();
    expect(dataOf(withBody({ status: 'success', message: null, data: null }))).toBeUndefined();
    expect(dataOf(withBody([bodyOf(VALID)]))).toBeUndefined();
    expect(dataOf(answer(404, APACHE_404, HTML))).toBeUndefined();
    expect(jsonBody(answer(404, APACHE_404, HTML))).toBeUndefined();
    expect(jsonBody(WRONG_TOKEN)).toEqual({ status: 'error', message: 'Invalid authentication credentials.', data: [] });
    expect([isObject(null), isObject([]), isObject('data'), isObject({})]).toEqual([false, false, false, true]);
  });

  test('canonical JSON ignores the order of keys, keeps that of entries unless told, and nothing else', () => {
    const unordered = (value: unknown): string => canonicalJson(value, { unordered: true });
    expect(canonicalJson({ b: [2, 1], a: null })).toBe('{"a":null,"b":[2,1]}');
    expect(unordered({ b: [2, 1], a: null })).toBe('{"a":null,"b":[1,2]}');
    expect(unordered([{ locale: 'fr' }, { locale: 'de' }])).toBe(unordered([{ locale: 'de' }, { locale: 'fr' }]));
    expect(canonicalJson([{ locale: 'fr' }, { locale: 'de' }])).not.toBe(canonicalJson([{ locale: 'de' }, { locale: 'fr' }]));
    expect(unordered([1, 2])).not.toBe(unordered([12]));
    expect(unordered({ a: 1, b: 2 })).not.toBe(unordered({ ab: 12 }));
    expect(unordered({ a: [] })).not.toBe(unordered({ a: {} }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
    // As JSON has them: an undefined field is left out, an undefined entry is null.
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson('')).toBe('""');
  });

  test('canonical JSON orders keys by code unit, not by a language: keys a collation ties still have one order', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3 })).toBe('{"B":2,"a":3,"b":1}');
    // The same two keys (é composed, and e with a combining accent) inserted in either order.
    expect(canonicalJson({ '\u00e9': 1, 'e\u0301': 2 })).toBe(canonicalJson({ 'e\u0301': 2, '\u00e9': 1 }));
  });

  test('values alike as sent are alike in canonical form; anything else is left to the canonical texts', () => {
    const sent = { status: 'success', data: { id: 1, translations: [{ locale: 'fr', name: 'Ouvert' }] } };
    expect(alikeAsSent(sent, JSON.parse(JSON.stringify(sent)))).toBe(true);
    expect(canonicalJson(sent)).toBe(canonicalJson(JSON.parse(JSON.stringify(sent))));
    // Alike once ordered, but not as sent: the keys, or the entries, in another order.
    expect(alikeAsSent({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(alikeAsSent([1, 2], [2, 1])).toBe(false);
    // Unlike in any form.
    expect([
      alikeAsSent({ a: 1 }, { a: '1' }),
      alikeAsSent({ a: [] }, { a: {} }),
      alikeAsSent({ a: null }, {}),
      alikeAsSent([1], [1, 2]),
      alikeAsSent({ a: { b: 1 } }, { a: { b: 2 } }),
      alikeAsSent(null, {}),
    ]).toEqual([false, false, false, false, false, false]);
  });
});

describe('authentication: what counts as serving the resource, and as refusing it', () => {
  const meaningOf = (exchange: Exchange): string => classifyExchange(exchange).meaning.kind;

  test('a ticket status is handed out by data holding at least half of the documented fields, whatever the HTTP code and words', () => {
    expect(classifyExchange(VALID).meaning).toEqual({ kind: 'served-status', id: '1' });
    const half = { id: 1, name: 'Open', colour: '#35a600', order: 1 };
    expect(meaningOf(withBody({ status: 'error', message: 'Unauthorized', data: half }))).toBe('served-status');
    expect(meaningOf(withBody({ data: { id: 1, name: 'Open', colour: '#35a600' } }))).toBe('refused');
    // data wrongly an array still hands the status out.
    expect(meaningOf(withBody({ status: 'success', message: null, data: [bodyOf(VALID).data] }))).toBe('served-status');
    expect(meaningOf(WRONG_TOKEN)).toBe('refused');
    // A success envelope is never a refusal, whatever data holds.
    expect(meaningOf(withBody({ status: 'success', message: null, data: 'Open' }))).toBe('served-without-resource');
    expect(meaningOf(withBody({ status: 'success', message: null, data: null }))).toBe('served-without-resource');
    expect(meaningOf(withBody([bodyOf(VALID)]))).toBe('undecodable');
    expect(meaningOf(withBody(bodyOf(VALID).data))).toBe('refused');
    expect(classifyExchange(answer(404, APACHE_404, HTML))).toMatchObject({ origin: { kind: 'front', front: 'web-server' } });
    expect(meaningOf(answer(200, 'null'))).toBe('undecodable');
    expect(meaningOf(answer(200, '"Open"'))).toBe('undecodable');
  });

  test('accepted: a status is served only with a success code (2xx) and the status handed out', () => {
    const acceptedWith = (status: number, from: Exchange = VALID): boolean => {
      const exchange = answeredWith(from, { status });
      return accepted(exchange, classifyExchange(exchange), 'served').ok;
    };
    expect([acceptedWith(200), acceptedWith(299), acceptedWith(300), acceptedWith(199), acceptedWith(401)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(acceptedWith(200, WRONG_TOKEN)).toBe(false);
    expect(accepted(VALID, classifyExchange(VALID), 'GET with the token succeeds')).toEqual({
      ok: true,
      description: 'GET with the token succeeds',
      expected: 'HTTP 2xx carrying the ticket status',
      actual: `HTTP 200 (application/json) ${VALID_BODY}`,
    });
    expect(accepted(STRIPPED, classifyExchange(STRIPPED), 'GET with the token succeeds')).toMatchObject({
      ok: false,
      actual: `${describeResponse(STRIPPED)}: refused by the API`,
    });
    // A status request is judged by the status: the listing's answer does not carry one.
    expect(accepted(LISTING, classifyExchange(LISTING), 'status').ok).toBe(false);
  });

  test('accepted: the listing is judged by its own rule, a success envelope or content without a word of refusal', () => {
    expect(accepted(LISTING, classifyExchange(LISTING), 'listing served', 'listing')).toEqual({
      ok: true,
      description: 'listing served',
      expected: 'HTTP 2xx with a JSON body that is not a refusal (its shape is not stated)',
      actual: describeResponse(LISTING),
    });
    expect(accepted(STRIPPED_LISTING, classifyExchange(STRIPPED_LISTING), 'listing served', 'listing').ok).toBe(false);
    expect(meaningOf(withBody([{ id: 1, name: 'Question' }], LISTING))).toBe('served-listing');
    expect(meaningOf(withBody({ types: ['Question'] }, LISTING))).toBe('served-listing');
    expect(meaningOf(withBody({ status: 'success', message: null, data: [] }, LISTING))).toBe('served-listing');
    expect(meaningOf(withBody({ status: 'error', message: 'Unauthenticated.', data: [] }, LISTING_NO_HEADER))).toBe('refused');
    // The listing handed out under an error code is handed out all the same.
    expect(meaningOf(answeredWith(LISTING, { status: 401 }))).toBe('served-listing');
    expect(meaningOf(withBody({ message: 'Unauthenticated.' }, answeredWith(LISTING_NO_HEADER, { status: 401 })))).toBe('refused');
    expect(classifyExchange(answer(200, APACHE_404, HTML)).origin.kind).toBe('front');
  });

  test('refused: a production refusal passes; an answer handing out the status or a success envelope fails whatever its code', () => {
    expect(refused(WRONG_TOKEN, classifyExchange(WRONG_TOKEN), 'a wrong token fails')).toEqual({
      ok: true,
      description: 'a wrong token fails',
      expected:
        'authentication fails: any answer without the ticket status or a success envelope, not a failure of the application (the error code is not stated)',
      actual: describeResponse(WRONG_TOKEN),
      refusal: true,
    });
    const handed = answeredWith(VALID, { status: 401 });
    expect(refused(handed, classifyExchange(handed), 'a wrong token fails')).toMatchObject({
      ok: false,
      actual: `${describeResponse(handed)}: handed out (served-status)`,
    });
    const emptySuccess = withBody({ status: 'success', message: null, data: [] }, LISTING_NO_HEADER);
    expect(refused(emptySuccess, classifyExchange(emptySuccess), 'no header fails', 'listing').ok).toBe(false);
    expect(refused(LISTING_NO_HEADER, classifyExchange(LISTING_NO_HEADER), 'no header fails', 'listing').ok).toBe(true);
  });

  test('the positive control: a refusal proves nothing unless its status, or the listing, was handed out in the run', () => {
    const reach = (served: Record<number, CredentialVariant[]>, listing: CredentialVariant[] = []): Reach => ({
      apiAnswered: true,
      servedStatusTo: served,
      servedListingTo: listing,
    });
    expect(missingStatusControl(reach({ 1: ['valid'] }), 1, VALID)).toBeUndefined();
    // The token as the password served is a control as good as the valid form: the header arrives, the token is valid.
    expect(missingStatusControl(reach({ 1: ['token-as-password'] }), 1, STRIPPED)).toBeUndefined();
    expect(missingStatusControl(reach({ 1: [] }), 1, STRIPPED)).toBe(
      'no request of this run was handed status 1, with any credentials (valid token, configured password: HTTP 401 (application/json) {"status":"error","message":"Failed to authenticate because of bad credentials or an invalid), so a refusal proves nothing',
    );
    // Another status served is no control of this one: a refusal of a status never served cannot have failed.
    expect(missingStatusControl(reach({ 1: ['valid'], 5: [] }), 5, STRIPPED)).toMatch(/^no request of this run was handed status 5,/);
    expect(missingListingControl(reach({ 1: ['valid'] }), STRIPPED_LISTING)).toMatch(/^no request of this run was handed the listing/);
    expect(missingListingControl(reach({}, ['valid']), STRIPPED_LISTING)).toBeUndefined();
  });
});

describe('the envelope', () => {
  test('a JSON body passes; a web server page fails with why it is not JSON', () => {
    expect(bodyIsJson(VALID)).toEqual({
      ok: true,
      description: 'the body is JSON',
      expected: 'a body that parses as JSON',
      actual: 'JSON',
    });
    const page = answer(404, APACHE_404, HTML);
    expect(bodyIsJson(page, 'the refusal is JSON')).toEqual({
      ok: false,
      description: 'the refusal is JSON',
      expected: 'a body that parses as JSON',
      actual: `${describeResponse(page)} (${parseError(page)})`,
    });
    expect(parseError(page)).not.toBe('');
  });

  test('each envelope field of the valid answer passes, with the documented rule and the value seen', () => {
    expect(envelopeField(VALID, 'status', 'status is success')).toEqual({
      ok: true,
      description: 'status is success',
      expected: 'status: the string "success"',
      actual: 'status: "success"',
    });
    expect(envelopeField(VALID, 'message', 'message')).toMatchObject({ ok: true, expected: 'message: null', actual: 'message: null' });
    expect(envelopeField(VALID, 'data', 'data')).toMatchObject({
      ok: true,
      expected: 'data: an object',
      actual: `data: ${show(bodyOf(VALID).data)}`,
    });
  });

  test('a refusal envelope, a missing field and extra list fields are judged field by field', () => {
    expect(envelopeField(WRONG_TOKEN, 'status', 'status')).toMatchObject({ ok: false, actual: 'status: "error"' });
    expect(envelopeField(WRONG_TOKEN, 'message', 'message')).toMatchObject({
      ok: false,
      actual: 'message: "Invalid authentication credentials."',
    });
    expect(envelopeField(WRONG_TOKEN, 'data', 'data')).toMatchObject({ ok: false, actual: 'data: []' });
    expect(envelopeField(withBody({ status: 'success', data: bodyOf(VALID).data }), 'message', 'message')).toMatchObject({
      ok: false,
      actual: 'message: absent',
    });
    for (const field of ['status', 'message', 'data'] as const)
      expect(envelopeField(LISTING, field, field).ok, field).toBe(field !== 'data');
  });

  test('an answer that is not a JSON object fails every field, saying what came instead', () => {
    const page = answer(200, APACHE_404, HTML);
    expect(envelopeField(page, 'status', 'status')).toEqual({
      ok: false,
      description: 'status',
      expected: 'status: the string "success"',
      actual: `not a JSON object: ${describeResponse(page)}`,
    });
    expect(envelopeField(withBody([bodyOf(VALID)]), 'data', 'data').actual).toMatch(/^not a JSON object: HTTP 200 /);
  });

  test('a byte order mark before the JSON fails; the plain answer passes', () => {
    const expected = 'the JSON text from the first byte (RFC 8259 section 8.1: no byte order mark)';
    expect(noByteOrderMark(VALID, 'no BOM')).toEqual({ ok: true, description: 'no BOM', expected, actual: 'no byte order mark' });
    const marked = answeredWith(VALID, { body: `\uFEFF${VALID_BODY}` });
    expect(marked.response.json.ok).toBe(true);
    expect(noByteOrderMark(marked, 'no BOM')).toEqual({
      ok: false,
      description: 'no BOM',
      expected,
      actual: 'a UTF-8 byte order mark (EF BB BF) before the JSON',
    });
  });
});

describe('the ticket status fields', () => {
  test('every field of the valid answer passes with its documented type and the value seen', () => {
    expect(statusField(VALID, 'colour')).toEqual({
      ok: true,
      description: 'data.colour has the documented type',
      expected: 'data.colour: a string of "#" and six hexadecimal digits',
      actual: 'data.colour: "#35a600"',
    });
    for (const field of ['id', 'name', 'auto_close', 'order', 'created_at', 'updated_at', 'translations'] as const) {
      expect(statusField(VALID, field).ok, field).toBe(true);
    }
  });

  test('a missing or mistyped field fails, and an answer without data says what came instead', () => {
    expect(statusField(COLOUR_MISSING, 'colour')).toMatchObject({ ok: false, actual: 'data.colour: absent' });
    expect(statusField(withData({ colour: 'green' }), 'colour')).toMatchObject({ ok: false, actual: 'data.colour: "green"' });
    expect(statusField(WRONG_TOKEN, 'id')).toEqual({
      ok: false,
      description: 'data.id has the documented type',
      expected: 'data.id: an integer',
      actual: `no data object: ${describeResponse(WRONG_TOKEN)}`,
    });
  });

  test('data.id must be the requested id, as an integer', () => {
    expect(statusIdIs(VALID, 1)).toEqual({
      ok: true,
      description: 'data.id is the requested id',
      expected: 'data.id: the integer 1',
      actual: 'data.id: 1',
    });
    expect(statusIdIs(VALID, 2)).toMatchObject({ ok: false, expected: 'data.id: the integer 2', actual: 'data.id: 1' });
    expect(statusIdIs(withData({ id: '1' }), 1)).toMatchObject({ ok: false, actual: 'data.id: "1"' });
    expect(statusIdIs(NOT_FOUND, 2147483646)).toMatchObject({ ok: false, actual: `no data object: ${describeResponse(NOT_FOUND)}` });
  });

  test('the translations of an answer are its object entries, or none when it has no list', () => {
    expect(translationsOf(VALID)?.map((entry) => entry.locale)).toEqual(['fr', 'de']);
    expect(translationsOf(withData({ translations: ['fr', { status_id: 1, name: 'Offen', locale: 'de' }] }))).toEqual([
      { status_id: 1, name: 'Offen', locale: 'de' },
    ]);
    expect(translationsOf(withData({ translations: {} }))).toBeUndefined();
    expect(translationsOf(WRONG_TOKEN)).toBeUndefined();
  });

  test("each translation's fields are judged entry by entry, naming the entries that fail", () => {
    expect(translationField(VALID, 'locale')).toEqual({
      ok: true,
      description: "every translation's locale has the documented type",
      expected: 'translations[].locale: a string of two letters',
      actual: 'all 2 entries conform',
    });
    const wrong = withData({ translations: [{ status_id: 1, name: 'Ouvrir', locale: 'fra' }, { status_id: 1, locale: 'de' }, 'es'] });
    expect(translationField(wrong, 'locale')).toMatchObject({
      ok: false,
      actual: 'translations[0].locale: "fra", translations[2].locale: absent',
    });
    expect(translationField(wrong, 'name')).toMatchObject({
      ok: false,
      actual: 'translations[1].name: absent, translations[2].name: absent',
    });
    expect(translationField(withData({ translations: [] }), 'name')).toMatchObject({ ok: true, actual: 'all 0 entries conform' });
    expect(translationField(withData({ translations: 'fr' }), 'name')).toMatchObject({ ok: false, actual: 'translations: "fr"' });
    expect(translationField(WRONG_TOKEN, 'name')).toMatchObject({ ok: false, actual: `no data object: ${describeResponse(WRONG_TOKEN)}` });
  });

  test("every translation's status_id is the requested status' id", () => {
    expect(translationsBelongToStatus(VALID, 1)).toEqual({
      ok: true,
      description: "every translation's status_id is the requested status' id",
      expected: 'translations[].status_id: the integer 1',
      actual: 'all 2 entries have status_id 1',
    });
    const wrong = withData({
      translations: [{ status_id: '1', name: 'Ouvrir', locale: 'fr' }, { status_id: 1, name: 'Offen', locale: 'de' }, null],
    });
    expect(translationsBelongToStatus(wrong, 1)).toMatchObject({
      ok: false,
      actual: 'translations[0].status_id: "1", translations[2].status_id: absent',
    });
    expect(translationsBelongToStatus(VALID, 2)).toMatchObject({
      ok: false,
      actual: 'translations[0].status_id: 1, translations[1].status_id: 1',
    });
    expect(translationsBelongToStatus(withData({ translations: null }), 1)).toMatchObject({ ok: false, actual: 'translations: null' });
    expect(translationsBelongToStatus(WRONG_TOKEN, 1)).toMatchObject({
      ok: false,
      actual: `no data object: ${describeResponse(WRONG_TOKEN)}`,
    });
  });

  test('a name is the wanted one or not', () => {
    expect(nameIs(FRENCH, 'Ouvrir', 'name is the translation')).toEqual({
      ok: true,
      description: 'name is the translation',
      expected: 'data.name: "Ouvrir"',
      actual: 'data.name: "Ouvrir"',
    });
    expect(nameIs(VALID, 'Ouvrir', 'name is the translation')).toMatchObject({ ok: false, actual: 'data.name: "Open"' });
    expect(nameIs(WRONG_TOKEN, 'Ouvrir', 'n')).toMatchObject({ ok: false, actual: `no data object: ${describeResponse(WRONG_TOKEN)}` });
  });

  test('the served answers are judged once per distinct body and requested id; refusals are left out', () => {
    const entry = (requestedId: number, label: string, exchange: Exchange) => ({
      requestedId,
      label,
      exchange,
      classified: classifyExchange(exchange),
    });
    const reordered = ({ data, ...rest }: { data: Record<string, unknown> }) => ({
      data: Object.fromEntries(
        Object.entries(data)
          .reverse()
          .map(([key, value]) => [key, Array.isArray(value) ? [...(value as unknown[])].reverse() : value]),
      ),
      ...rest,
    });
    expect((bodyOf(VALID).data.translations as unknown[]).length).toBeGreaterThan(1);
    const served = distinctServed([
      entry(1, 'plain', VALID),
      entry(1, 'again', answeredWith(VALID, { body: JSON.stringify(bodyOf(VALID)) })),
      // The same status with its keys and translations in another order is the same answer.
      entry(1, 'reordered', withBody(reordered(bodyOf(VALID)))),
      entry(1, 'refused', WRONG_TOKEN),
      entry(2, 'asked for 2', VALID),
      entry(1, 'french', FRENCH),
      entry(1, 'french again', FRENCH),
    ]);
    expect(served.map(({ label }) => label)).toEqual(['plain', 'asked for 2', 'french']);
  });

  test('served bodies are told apart however deep they differ, and every check of a status reads the one list', () => {
    const entry = (label: string, exchange: Exchange) => ({ requestedId: 1, label, exchange, classified: classifyExchange(exchange) });
    const translations = bodyOf(VALID).data.translations as Record<string, unknown>[];
    const [first, ...others] = translations;
    const answers = [
      entry('plain', VALID),
      entry('a translation named otherwise', withData({ translations: [first, ...others.map((t) => ({ ...t, name: 'Autre' }))] })),
      entry('one more translation', withData({ translations: [...translations, { status_id: 1, name: 'Abierto', locale: 'es' }] })),
      entry('one more key', withData({ extra: true })),
      entry('translations as an object', withData({ translations: { ...translations } })),
      entry('null in place of a value', withData({ colour: null })),
      entry('again as sent', answeredWith(VALID, { body: JSON.stringify(bodyOf(VALID)) })),
    ];
    const served = distinctServed(answers);
    expect(served.map(({ label }) => label)).toEqual([
      'plain',
      'a translation named otherwise',
      'one more translation',
      'one more key',
      'translations as an object',
      'null in place of a value',
    ]);
    expect(distinctServed(answers)).toBe(served);
    expect(distinctServed([...answers].reverse()).map(({ label }) => label)).toEqual([
      'again as sent',
      'null in place of a value',
      'translations as an object',
      'one more key',
      'one more translation',
      'a translation named otherwise',
    ]);
  });

  test('an outcome about one of several answers names it', () => {
    const result = statusIdIs(VALID, 1);
    expect(about(result, undefined)).toBe(result);
    expect(about(result, 'lang=fr')).toEqual({ ...result, description: 'data.id is the requested id (lang=fr)' });
  });
});

describe('lang', () => {
  const translations = bodyOf(VALID).data.translations as Record<string, unknown>[];

  test('translations kept as they were pass, in any order and with fields the document does not name', () => {
    expect(translationsUnchanged(VALID, FRENCH, 'translations unchanged')).toEqual({
      ok: true,
      description: 'translations unchanged',
      expected: `translations: the same entries as without lang (status_id, name, locale), ${show(translations)}`,
      actual: `translations: ${show(translations)}`,
    });
    expect(translationsUnchanged(VALID, withData({ translations: [...translations].reverse() }, FRENCH), 't').ok).toBe(true);
    const annotated = translations.map((entry) => ({ ...entry, id: 9, updated_at: 1486732738 }));
    expect(translationsUnchanged(VALID, withData({ translations: annotated }, FRENCH), 't').ok).toBe(true);
  });

  test('a translation dropped, renamed or replaced fails', () => {
    expect(translationsUnchanged(VALID, withData({ translations: translations.slice(0, 1) }, FRENCH), 't').ok).toBe(false);
    const renamed = [{ ...translations[0], name: 'Ouvert' }, translations[1]];
    expect(translationsUnchanged(VALID, withData({ translations: renamed }, FRENCH), 't').ok).toBe(false);
    expect(translationsUnchanged(withData({ translations: ['fr'] }), withData({ translations: ['de'] }, FRENCH), 't').ok).toBe(false);
    expect(translationsUnchanged(withData({ translations: ['fr'] }), withData({ translations: ['fr'] }, FRENCH), 't').ok).toBe(true);
    expect(translationsUnchanged(VALID, withData({ translations: undefined }, FRENCH), 't')).toMatchObject({
      ok: false,
      actual: 'translations: absent',
    });
  });

  test('without a list to compare with, only the presence of one is judged', () => {
    const plain = withData({ translations: undefined });
    expect(translationsUnchanged(plain, FRENCH, 't')).toMatchObject({ ok: true, expected: 'translations: an array' });
    expect(translationsUnchanged(plain, withData({ translations: {} }, FRENCH), 't').ok).toBe(false);
  });

  test('a plain answer without data leaves nothing to compare: an array of translations is enough', () => {
    expect(translationsUnchanged(WRONG_TOKEN, FRENCH, 't')).toMatchObject({ ok: true, expected: 'translations: an array' });
  });

  test('an answer to lang without data fails, saying what came', () => {
    expect(translationsUnchanged(VALID, WRONG_TOKEN, 't')).toMatchObject({
      ok: false,
      actual: `no data object: ${describeResponse(WRONG_TOKEN)}`,
    });
    expect(untranslatedFieldsUnchanged(VALID, WRONG_TOKEN, 'u')).toMatchObject({
      ok: false,
      actual: `no data object: ${describeResponse(WRONG_TOKEN)}`,
    });
  });

  test('fields a translation cannot carry stay as they were, and the changed ones are named', () => {
    expect(untranslatedFieldsUnchanged(VALID, FRENCH, 'untranslated fields unchanged')).toEqual({
      ok: true,
      description: 'untranslated fields unchanged',
      expected: 'id: 1, colour: "#35a600", auto_close: 1, order: 1, created_at: 1486732738, updated_at: 1486732738',
      actual: 'all unchanged',
    });
    expect(untranslatedFieldsUnchanged(VALID, withData({ colour: '#ffffff', order: 2 }, FRENCH), 'u')).toMatchObject({
      ok: false,
      actual: 'colour: "#ffffff", order: 2',
    });
    expect(untranslatedFieldsUnchanged(VALID, withData({ updated_at: undefined }, FRENCH), 'u')).toMatchObject({
      ok: false,
      actual: 'updated_at: absent',
    });
    // A field that was null and is gone has changed too.
    expect(untranslatedFieldsUnchanged(withData({ auto_close: null }), withData({ auto_close: undefined }, FRENCH), 'u')).toMatchObject({
      ok: false,
      actual: 'auto_close: absent',
    });
  });

  test('when the plain answer had no data, every field is expected absent', () => {
    expect(untranslatedFieldsUnchanged(WRONG_TOKEN, FRENCH, 'u')).toMatchObject({
      ok: false,
      expected: 'id: absent, colour: absent, auto_close: absent, order: absent, created_at: absent, updated_at: absent',
      actual: 'id: 1, colour: "#35a600", auto_close: 1, order: 1, created_at: 1486732738, updated_at: 1486732738',
    });
  });
});

describe('schemas', () => {
  test('a validator is found for a whole schema and a field; an unknown one is a clear error', () => {
    expect(validator('ticket-status-envelope')(bodyOf(VALID))).toBe(true);
    expect(validator('ticket-status', '/properties/colour')('#35a600')).toBe(true);
    expect(() => validator('ticket-status', '/properties/priority')).toThrow(
      'no validator for ticket-status#/properties/priority: add it to validatorKeys() and run npm run schemas:compile',
    );
  });

  test('a part of a schema without a description is described by where it is', () => {
    expect(schemaDescription('ticket-status', '/properties/colour')).toBe('a string of "#" and six hexadecimal digits');
    expect(schemaDescription('error', '/properties/status')).toBe('valid against error/properties/status');
  });

  test('schema errors are listed with where they are, the root as /', () => {
    const errors = [
      { instancePath: '', message: "must have required property 'data'" },
      { instancePath: '/colour', message: 'must match pattern "^#[0-9a-fA-F]{6}$"' },
      { instancePath: '/id' },
    ] as ErrorObject[];
    expect(formatSchemaErrors(errors)).toBe('/ must have required property \'data\'; /colour must match pattern "^#[0-9a-fA-F]{6}$"; /id');
    expect(formatSchemaErrors(null)).toBe('');
    expect(formatSchemaErrors(undefined)).toBe('');
  });
});

describe('timestamps, whose unit the document leaves open', () => {
  test.each([
    [1486732738, '1486732738: looks like Unix seconds (2017-02-10T13:18:58.000Z)'],
    [1e9, '1000000000: looks like Unix seconds (2001-09-09T01:46:40.000Z)'],
    [1e10 - 1, '9999999999: looks like Unix seconds (2286-11-20T17:46:39.000Z)'],
    [1486732738123, '1486732738123: looks like Unix milliseconds (2017-02-10T13:18:58.123Z)'],
    [1e12, '1000000000000: looks like Unix milliseconds (2001-09-09T01:46:40.000Z)'],
    [1e13 - 1, '9999999999999: looks like Unix milliseconds (2286-11-20T17:46:39.999Z)'],
    [1e9 - 1, '999999999: unit not recognised'],
    [1e10, '10000000000: unit not recognised'],
    [1e12 - 1, '999999999999: unit not recognised'],
    [1e13, '10000000000000: unit not recognised'],
    [1.5, '1.5 (not an integer)'],
    ['1486732738', '"1486732738" (not an integer)'],
  ])('%j reads as %s', (value, words) => {
    expect(timestampUnit(value)).toBe(words);
  });
});

describe('authentication: what an answer that is not the resource holds instead', () => {
  const classifiedAccepted = (exchange: Exchange, resource?: 'status' | 'listing') =>
    accepted(exchange, classifyExchange(exchange), 'GET with the token succeeds', resource);

  test('a success envelope without the status still takes the credentials, and is no refusal', () => {
    const envelope = withBody({ status: 'success', message: null, data: null });
    expect(classifyExchange(envelope).meaning.kind).toBe('served-without-resource');
    expect(classifiedAccepted(envelope)).toMatchObject({ ok: true, actual: describeResponse(envelope) });
    expect(refused(envelope, classifyExchange(envelope), 'a wrong token fails')).toMatchObject({
      ok: false,
      actual: `${describeResponse(envelope)}: handed out (served-without-resource)`,
    });
  });

  test('the application failing is named with its evidence: a database down, a PHP fatal error', () => {
    const databaseDown = answer(500, '{"status":"error","message":"SQLSTATE[HY000] [2002] Connection refused","data":[]}');
    expect(classifiedAccepted(databaseDown)).toMatchObject({
      ok: false,
      actual: `${describeResponse(databaseDown)}: the application failed (database-down: HTTP 500 in the API's own envelope)`,
    });
    const fatal = answer(500, '<br />\n<b>Fatal error</b>:  Uncaught Error: Class "Redis" not found in /var/www/app/Cache.php:14', {
      'content-type': 'text/html; charset=UTF-8',
    });
    expect(classifiedAccepted(fatal).actual).toMatch(/: the application failed \(fatal-error: HTTP 500 with "[^"]*Fatal error[^"]*"\)$/);
  });

  test('a body that cannot be read says why; another answer of the API names what it is; a front is named by its evidence', () => {
    const nothing = answer(200, 'null');
    const meaning = classifyExchange(nothing).meaning;
    expect(meaning.kind).toBe('undecodable');
    expect(classifiedAccepted(nothing).actual).toBe(
      `${describeResponse(nothing)}: a body that cannot be read (${meaning.kind === 'undecodable' ? meaning.detail : ''})`,
    );
    // The listing answers a status request: the API answered, with something else than the status.
    expect(classifiedAccepted(LISTING).actual).toBe(`${describeResponse(LISTING)}: served-listing`);
    const apache = answer(404, APACHE_404, HTML);
    const origin = classifyExchange(apache).origin;
    expect(origin.kind).toBe('front');
    expect(classifiedAccepted(apache).actual).toBe(`${describeResponse(apache)}: ${origin.kind === 'front' ? origin.evidence : ''}`);
  });

  test('a refusal of the listing is judged by the listing', () => {
    expect(refused(LISTING_NO_HEADER, classifyExchange(LISTING_NO_HEADER), 'no header fails', 'listing')).toEqual({
      ok: true,
      description: 'no header fails',
      expected:
        'authentication fails: any answer without the listing or a success envelope, not a failure of the application (the error code is not stated)',
      actual: describeResponse(LISTING_NO_HEADER),
      refusal: true,
    });
  });
});

describe('the status served: its id as the JSON text holds it, its name code point by code point', () => {
  /** The valid answer with data.id written as the given JSON text. */
  const idWritten = (text: string): Exchange => answer(200, VALID_BODY.replace('"id":1,', `"id":${text},`));
  const idOutcome = (exchange: Exchange, requestedId: number) => statusIdIs(exchange, requestedId, classifyExchange(exchange));

  test('the id is compared as sent: 1.0 is not the integer 1, and an id beyond 2^53 is not its neighbour', () => {
    expect(idOutcome(VALID, 1)).toEqual({
      ok: true,
      description: 'data.id is the requested id',
      expected: 'data.id: the integer 1',
      actual: 'data.id: 1',
    });
    expect(idOutcome(idWritten('1.0'), 1)).toMatchObject({ ok: false, actual: 'data.id: 1.0' });
    // JSON.parse reads both as 9007199254740992: only the text tells them apart.
    expect(idOutcome(idWritten('9007199254740993'), 9007199254740992)).toMatchObject({
      ok: false,
      actual: 'data.id: 9007199254740993',
    });
    expect(idOutcome(idWritten('9007199254740992'), 9007199254740992).ok).toBe(true);
  });

  test('a name in another normalisation form (decomposed é) fails, both names spelt out code point by code point', () => {
    const decomposed = withData({ name: 'Ferme\u0301' });
    expect(nameIs(decomposed, 'Ferm\u00e9', 'name is the one stored')).toEqual({
      ok: false,
      description: 'name is the one stored',
      expected: 'data.name: "Ferm\u00e9" (U+0046 U+0065 U+0072 U+006D U+00E9)',
      actual:
        'data.name: "Ferme\u0301" (U+0046 U+0065 U+0072 U+006D U+0065 U+0301): the same text in another Unicode normalisation form, which a byte-wise comparison tells apart',
    });
    expect(nameIs(withData({ name: 'Ferm\u00e9' }), 'Ferme\u0301', 'n').expected).toBe(
      'data.name: "Ferme\u0301" (U+0046 U+0065 U+0072 U+006D U+0065 U+0301)',
    );
    expect(nameIs(withData({ name: '\u{1F7E2} Open' }), '\u{1F7E2} Open', 'n')).toMatchObject({
      ok: true,
      actual: 'data.name: "\u{1F7E2} Open"',
    });
  });

  test('a status handed out under an error or a redirect code is not a served answer; a refusal under 200 is not either', () => {
    const entry = (label: string, exchange: Exchange) => ({ requestedId: 1, label, exchange, classified: classifyExchange(exchange) });
    const withStatus = (status: number, body = VALID_BODY): Exchange => answer(status, body);
    const served = distinctServed([
      entry('401 with the status', withStatus(401)),
      entry('300 with the status', withStatus(300)),
      entry('refusal under 200', withStatus(200, WRONG_TOKEN.response.bodyText)),
      entry('299 with the status', withStatus(299)),
    ]);
    expect(served.map(({ label }) => label)).toEqual(['299 with the status']);
  });
});
