import type { Exchange } from '../../exchange/exchange.js';
import type { Classified } from '../../classify/types.js';
import { alikeAsSent, canonicalJson } from '../../hash.js';
import { isSuccessCode } from '../../classify/types.js';
import { describeResponse, fieldRules, outcome, show, type CheckOutcome } from './outcome.js';
import { dataOf, isObject, jsonBody } from '../../exchange/json-body.js';

export type StatusField = 'id' | 'name' | 'colour' | 'auto_close' | 'order' | 'created_at' | 'updated_at' | 'translations';
export type TranslationField = 'status_id' | 'name' | 'locale';

function noData(exchange: Exchange, description: string, expected: string): CheckOutcome {
  return outcome(false, description, expected, `no data object: ${describeResponse(exchange)}`);
}

const statusFieldRule = fieldRules<StatusField>(
  'ticket-status',
  (field) => `/properties/${field}`,
  (field) => `data.${field}`,
);
const translationFieldRule = fieldRules<TranslationField>(
  'ticket-status',
  (field) => `/$defs/translation/properties/${field}`,
  (field) => `translations[].${field}`,
);

export function statusField(exchange: Exchange, field: StatusField): CheckOutcome {
  const description = `data.${field} has the documented type`;
  const { expected, validate } = statusFieldRule(field);
  const data = dataOf(exchange);
  if (!data) return noData(exchange, description, expected);
  const ok = field in data && validate(data[field]);
  return outcome(ok, description, expected, `data.${field}: ${show(data[field])}`);
}

/**
 * The id is the one asked for, compared as the JSON text holds it (the classification keeps it so): an id beyond 2^53,
 * which JSON.parse rounds, is told apart from its neighbours, and 1.0 is not the integer 1's text.
 */
export function statusIdIs(exchange: Exchange, requestedId: number, classified?: Classified): CheckOutcome {
  const description = 'data.id is the requested id';
  const expected = `data.id: the integer ${requestedId}`;
  const data = dataOf(exchange);
  if (!data) return noData(exchange, description, expected);
  const asSent = classified?.meaning.kind === 'served-status' ? classified.meaning.id : undefined;
  const same = asSent === undefined ? data.id === requestedId : asSent === String(requestedId);
  return outcome(same, description, expected, `data.id: ${asSent ?? show(data.id)}`);
}

export function translationField(exchange: Exchange, field: TranslationField): CheckOutcome {
  const description = `every translation's ${field} has the documented type`;
  const { expected, validate } = translationFieldRule(field);
  const data = dataOf(exchange);
  if (!data) return noData(exchange, description, expected);
  if (!Array.isArray(data.translations)) return outcome(false, description, expected, `translations: ${show(data.translations)}`);
  const wrong = data.translations
    .map((entry: unknown, index) => ({ index, value: isObject(entry) ? entry[field] : undefined }))
    // An absent field reads as undefined, which no documented type admits.
    .filter(({ value }) => !validate(value));
  const actual =
    wrong.length === 0
      ? `all ${data.translations.length} entries conform`
      : wrong.map(({ index, value }) => `translations[${index}].${field}: ${show(value)}`).join(', ');
  return outcome(wrong.length === 0, description, expected, actual);
}

export function translationsBelongToStatus(exchange: Exchange, statusId: number): CheckOutcome {
  const description = "every translation's status_id is the requested status' id";
  const data = dataOf(exchange);
  const expected = `translations[].status_id: the integer ${statusId}`;
  if (!data) return noData(exchange, description, expected);
  if (!Array.isArray(data.translations)) return outcome(false, description, expected, `translations: ${show(data.translations)}`);
  const wrong = data.translations
    .map((entry: unknown, index) => ({ index, value: isObject(entry) ? entry.status_id : undefined }))
    .filter(({ value }) => value !== statusId);
  const actual =
    wrong.length === 0
      ? `all ${data.translations.length} entries have status_id ${statusId}`
      : wrong.map(({ index, value }) => `translations[${index}].status_id: ${show(value)}`).join(', ');
  return outcome(wrong.length === 0, description, expected, actual);
}

/** The code points of a text, for two names that look the same and differ (Unicode normalisation). */
const codePoints = (text: string): string =>
  [...text].map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

export function nameIs(exchange: Exchange, wanted: string, description: string): CheckOutcome {
  const data = dataOf(exchange);
  const name = data?.name;
  const lookAlike = typeof name === 'string' && name !== wanted && name.normalize('NFC') === wanted.normalize('NFC');
  const expected = `data.name: ${show(wanted)}${lookAlike ? ` (${codePoints(wanted)})` : ''}`;
  if (!data) return noData(exchange, description, expected);
  const actual = `data.name: ${show(name)}`;
  return outcome(
    name === wanted,
    description,
    expected,
    lookAlike
      ? `${actual} (${codePoints(name)}): the same text in another Unicode normalisation form, which a byte-wise comparison tells apart`
      : actual,
  );
}

/** One answer to a status request, the id it asked for, and what to call it in a message. */
export interface StatusAnswer {
  requestedId: number;
  label: string;
  exchange: Exchange;
  classified: Classified;
}

/** Each served body's canonical text, made once per exchange, and only for a body not alike as sent to one kept. */
const canonicalBodies = new WeakMap<StatusAnswer['exchange'], string>();

function canonicalBody(exchange: StatusAnswer['exchange']): string {
  let text = canonicalBodies.get(exchange);
  if (text === undefined) {
    text = canonicalJson(jsonBody(exchange), { unordered: true });
    canonicalBodies.set(exchange, text);
  }
  return text;
}

/** The answers of a status kept distinct, by the status' answers: the checks of a target's status all read one list. */
const distinctOf = new WeakMap<readonly StatusAnswer[], readonly StatusAnswer[]>();

/**
 * The answers that served a status, each distinct body once per requested id: whatever request produced it, a status
 * handed out is judged by the same rules, and a served status must be the one asked for.
 */
export function distinctServed(answers: readonly StatusAnswer[]): readonly StatusAnswer[] {
  let distinct = distinctOf.get(answers);
  if (distinct) return distinct;
  // The answers kept for each requested id.
  const kept = new Map<number, Exchange[]>();
  distinct = answers.filter(({ requestedId, exchange, classified }) => {
    const { status } = exchange.response;
    if (classified.meaning.kind !== 'served-status' || !isSuccessCode(status)) return false;
    const earlier = kept.get(requestedId) ?? [];
    kept.set(requestedId, earlier);
    // Bodies that differ only in the order of keys or of list entries (the translations) are the same status; most
    // repeat one another as sent, which tells them alike without a canonical text.
    const body = jsonBody(exchange);
    if (earlier.some((other) => alikeAsSent(jsonBody(other), body))) return false;
    if (earlier.some((other) => canonicalBody(other) === canonicalBody(exchange))) return false;
    earlier.push(exchange);
    return true;
  });
  distinctOf.set(answers, distinct);
  return distinct;
}

/** The same outcome, its description naming which answer it is about. */
export function about(result: CheckOutcome, label: string | undefined): CheckOutcome {
  return label === undefined ? result : { ...result, description: `${result.description} (${label})` };
}
