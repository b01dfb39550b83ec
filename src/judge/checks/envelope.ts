import { BYTE_ORDER_MARK } from '../../exchange/body-text.js';
import type { Exchange } from '../../exchange/exchange.js';
import { describeResponse, fieldRules, outcome, show, type CheckOutcome } from './outcome.js';
import { isObject, jsonBody } from '../../exchange/json-body.js';

export type EnvelopeField = 'status' | 'message' | 'data';

export function bodyIsJson(exchange: Exchange, description = 'the body is JSON'): CheckOutcome {
  const { json } = exchange.response;
  return outcome(json.ok, description, 'a body that parses as JSON', json.ok ? 'JSON' : `${describeResponse(exchange)} (${json.error})`);
}

const envelopeFieldRule = fieldRules<EnvelopeField>(
  'envelope',
  (field) => `/properties/${field}`,
  (field) => field,
);

export function envelopeField(exchange: Exchange, field: EnvelopeField, description: string): CheckOutcome {
  const body = jsonBody(exchange);
  const { expected, validate } = envelopeFieldRule(field);
  if (!isObject(body)) return outcome(false, description, expected, `not a JSON object: ${describeResponse(exchange)}`);
  const value = body[field];
  const ok = field in body && validate(value);
  return outcome(ok, description, expected, `${field}: ${show(value)}`);
}

/** RFC 8259 section 8.1: no byte order mark is added to networked JSON; parsers such as PHP's json_decode reject one. */
export function noByteOrderMark(exchange: Exchange, description: string): CheckOutcome {
  const marked = exchange.response.bodyText.startsWith(BYTE_ORDER_MARK);
  return outcome(
    !marked,
    description,
    'the JSON text from the first byte (RFC 8259 section 8.1: no byte order mark)',
    marked ? 'a UTF-8 byte order mark (EF BB BF) before the JSON' : 'no byte order mark',
  );
}
