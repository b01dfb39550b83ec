import { BYTE_ORDER_MARK, jsonShape } from '../../exchange/body-text.js';
import type { Exchange } from '../../exchange/exchange.js';
import { isObject } from '../../exchange/json-body.js';
import { describeResponse, outcome, show, type CheckOutcome } from './outcome.js';

// What the vendor's PHP client (supportpal/api-client-php) makes of an answer, read from its code: the CLIENT
// requirements of the catalog quote the line each check follows.

/**
 * The most nesting of arrays and objects json_decode($body, true, 512) reads: its depth counts the values inside the
 * deepest array or object as one more level, so 512 nested arrays already throw "Maximum stack depth exceeded"
 * (seen with PHP 8.2).
 */
export const CLIENT_MAX_NESTING = 511;

/** What json_decode($body, true, 512, JSON_THROW_ON_ERROR) gives: the check's outcome, and the decoded body unless it throws. */
export type ClientDecoded = { outcome: CheckOutcome } & ({ ok: true; value: unknown } | { ok: false });

const DECODES = 'json_decode($body, true, 512, JSON_THROW_ON_ERROR) returns the body';

/** Deepest nesting of arrays and objects in a parsed value. */
function nestingOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(nestingOf));
}

/** Half of a UTF-16 surrogate pair, alone: valid UTF-8 cannot carry one, so only a \u escape put it there. */
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string or key holding half of a surrogate pair: JSON.parse keeps it, PHP's json_decode throws on it. */
function unpairedSurrogate(value: unknown): string | undefined {
  if (typeof value === 'string') return UNPAIRED.test(value) ? value : undefined;
  // A number, a boolean or null holds no entries.
  for (const [key, member] of Object.entries(value ?? {})) {
    const found = (UNPAIRED.test(key) ? key : undefined) ?? unpairedSurrogate(member);
    if (found !== undefined) return found;
  }
  return undefined;
}

const thrown = (description: string, actual: string, beyondDepthCap?: true): ClientDecoded => ({
  ok: false,
  outcome: { ...outcome(false, description, DECODES, actual), ...(beyondDepthCap ? { beyondDepthCap } : {}) },
});

/** The client's first step (src/Http/Client.php line 78): json_decode with depth 512, throwing on any error. */
export function clientDecode(exchange: Exchange, description: string): ClientDecoded {
  const { json, bodyText } = exchange.response;
  if (bodyText.startsWith(BYTE_ORDER_MARK)) {
    return thrown(description, `a UTF-8 byte order mark (EF BB BF) before the JSON: json_decode throws "Syntax error"`);
  }
  if (!json.ok) {
    if (json.why === 'encoding') return thrown(description, `${json.error}: json_decode throws "Malformed UTF-8 characters"`);
    if (json.why === 'suite-limit') {
      // The suite parses no deeper than 512 levels; the text kept shows whether the nesting is past the client's limit.
      const depth = jsonShape(bodyText).depth;
      return depth > CLIENT_MAX_NESTING
        ? thrown(description, `JSON nested ${depth} levels deep: json_decode throws "Maximum stack depth exceeded"`, true)
        : thrown(description, json.error);
    }
    if (json.embedded) {
      const { before, after } = json.embedded;
      return thrown(
        description,
        `${before} character(s) before and ${after} after the JSON: json_decode throws "Syntax error" (${describeResponse(exchange)})`,
      );
    }
    const what = bodyText.trim() === '' ? 'an empty body' : describeResponse(exchange);
    return thrown(description, `${what}: json_decode throws "Syntax error" (${json.error})`);
  }
  const nesting = nestingOf(json.value);
  if (nesting > CLIENT_MAX_NESTING) {
    return thrown(description, `JSON nested ${nesting} levels deep: json_decode throws "Maximum stack depth exceeded"`);
  }
  const unpaired = unpairedSurrogate(json.value);
  if (unpaired !== undefined) {
    return thrown(
      description,
      `a \\u escape of half a surrogate pair in ${show(unpaired)}: json_decode throws "Single unpaired UTF-16 surrogate in unicode escape"`,
    );
  }
  return { ok: true, value: json.value, outcome: outcome(true, description, DECODES, 'decoded') };
}

/** src/Http/Client.php line 89: any status but 200 throws, whatever the body. */
export function exactly200(exchange: Exchange, description: string): CheckOutcome {
  const { status } = exchange.response;
  return outcome(status === 200, description, 'HTTP 200 exactly', `HTTP ${status}`);
}

/** src/Http/Client.php lines 90 and 91: the decoded body is a PHP array (a JSON object or list) whose status isset. */
export function statusSet(body: unknown, description: string): CheckOutcome {
  const expected = 'a JSON object with status set, not null';
  if (typeof body !== 'object' || body === null) return outcome(false, description, expected, `not a JSON object: ${show(body)}`);
  const status = (body as Record<string, unknown>).status;
  return outcome(status !== undefined && status !== null, description, expected, `status: ${show(status)}`);
}

/** src/Http/Client.php line 92: status "error" throws, even with HTTP 200. */
export function statusNotError(body: unknown, description: string): CheckOutcome {
  const status = isObject(body) ? body.status : undefined;
  return outcome(status !== 'error', description, 'status other than "error"', `status: ${show(status)}`);
}

/**
 * src/Api/Ticket/Statuses.php lines 36 and 42: data goes to createStatusModel(array $data). A JSON object or list
 * decodes to a PHP array; anything else (null, a string, a number, or no data at all) is a TypeError.
 */
export function dataArray(body: unknown, description: string): CheckOutcome {
  const data = isObject(body) ? body.data : undefined;
  return outcome(
    typeof data === 'object' && data !== null,
    description,
    'data: a JSON object',
    `data: ${show(data)}${typeof data === 'object' && data !== null ? '' : ': createStatusModel(array $data) throws a TypeError'}`,
  );
}

/** A numeric string as PHP 8 reads one, whitespace around allowed; "12abc" is only leading-numeric, and not one. */
const PHP_NUMERIC_STRING = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
/** PHP_INT_MAX + 1 on the 64-bit builds the client runs on: (int) of a number this large is not defined. */
const PHP_INT_LIMIT = 2 ** 63;

/** What PHP 8's (int) gives for a decoded JSON value: numbers truncated, strings read up to their first non-digit. */
export function phpIntCast(value: unknown): number | 'undefined' {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Math.abs(value) < PHP_INT_LIMIT ? Math.trunc(value) : 'undefined';
  if (typeof value === 'string') {
    const leading = /^[ \t\n\r\v\f]*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)/.exec(value)?.[1];
    return leading === undefined ? 0 : phpIntCast(Number(leading));
  }
  // A JSON list or object, a PHP array either way: 1 when it holds anything.
  if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0 ? 1 : 0;
  return 0;
}

/**
 * Whether (int) keeps the value: it gives a number PHP 8 holds equal to the value ((int)$v == $v). An integer, a
 * whole float, an integer's string, true or false, and null (which the model leaves null) are kept; "abc" (read as 0),
 * 1.5, "12abc", an array, or an integer PHP cannot hold are not.
 */
function castKeeps(value: unknown): boolean {
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < PHP_INT_LIMIT;
  if (typeof value === 'string') {
    if (!PHP_NUMERIC_STRING.test(value)) return false;
    // Number() reads past the same white space PHP allows around a numeric string.
    const number = Number(value);
    return Number.isInteger(number) && Math.abs(number) < PHP_INT_LIMIT;
  }
  return false;
}

/** The fields the client's models cast to int: Status (src/Model/Ticket/Status.php) and StatusTranslation. */
const STATUS_INT_FIELDS = ['id', 'auto_close', 'order', 'created_at', 'updated_at'] as const;
const TRANSLATION_INT_FIELDS = ['id', 'status_id'] as const;

/**
 * Every int-cast field of the status and its translations that (int) does not keep: what the client would hand its
 * caller instead, without an error. An absent field is null to the model, and kept.
 */
export function intCasts(data: Record<string, unknown>, description: string): CheckOutcome {
  const changed: string[] = [];
  const look = (path: string, value: unknown): void => {
    if (value !== undefined && !castKeeps(value)) changed.push(`${path} ${show(value)} is read as ${phpIntCast(value)}`);
  };
  for (const field of STATUS_INT_FIELDS) look(field, data[field]);
  // Stryker disable next-line ArrayDeclaration: an entry that is no object is skipped, so it counts as no entry
  const translations = Array.isArray(data.translations) ? data.translations : [];
  translations.forEach((entry: unknown, index) => {
    if (isObject(entry)) for (const field of TRANSLATION_INT_FIELDS) look(`translations[${index}].${field}`, entry[field]);
  });
  return outcome(
    changed.length === 0,
    description,
    "integers (or their strings): values PHP's (int) cast keeps",
    changed.length === 0 ? 'every such field is kept' : changed.join('; '),
  );
}
