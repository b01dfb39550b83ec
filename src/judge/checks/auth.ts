import type { Exchange, ParsedBody } from '../../exchange/exchange.js';
import { canonical } from './canonical.js';
import { describeResponse, outcome, type CheckOutcome } from './outcome.js';
import { isObject } from '../../exchange/json-body.js';

/** The documented fields of a ticket status. */
const STATUS_FIELDS = ['id', 'name', 'colour', 'auto_close', 'order', 'created_at', 'updated_at', 'translations'] as const;
/** Half the documented fields: enough to tell a status from any refusal, few enough that a status with faults still counts. */
const FIELDS_OF_A_STATUS = STATUS_FIELDS.length / 2;

/**
 * The ticket status a body carries: its data object (or the first entry, when data is wrongly an array) holding most of
 * the documented fields. Whatever the HTTP code and whatever the other words, such an answer hands the resource out.
 */
export function carriedStatus(json: ParsedBody): Record<string, unknown> | undefined {
  if (!json.ok || !isObject(json.value)) return undefined;
  const data: unknown = Array.isArray(json.value.data) ? json.value.data[0] : json.value.data;
  if (!isObject(data)) return undefined;
  return STATUS_FIELDS.filter((field) => field in data).length >= FIELDS_OF_A_STATUS ? data : undefined;
}

const isSuccessCode = (status: number): boolean => status >= 200 && status < 300;

/** The status request was served: a success code, and the answer carries a ticket status. Words in the body play no part. */
export function servesStatus({ status, json }: Pick<Exchange['response'], 'status' | 'json'>): boolean {
  return isSuccessCode(status) && carriedStatus(json) !== undefined;
}

/**
 * The selfservice listing's shape is not shown, so the valid request counts as served when it gets a success code and
 * JSON; a refusal is judged against what that request got (see handsOutSameListing).
 */
export function servesListing({ status, json }: Pick<Exchange['response'], 'status' | 'json'>): boolean {
  return isSuccessCode(status) && json.ok;
}

/** What a request without credentials got on the status path: the API's own refusal, which a listing is told from. */
export type Refusal = Pick<Exchange['response'], 'status' | 'bodyText'>;

/** What identifies the listing: its data when it holds something, else the whole body (an empty list says nothing). */
function listingContent(json: ParsedBody): string | undefined {
  if (!json.ok) return undefined;
  const body = json.value;
  if (isObject(body) && 'data' in body) {
    const { data } = body;
    const empty = data === null || (Array.isArray(data) ? data.length === 0 : isObject(data) && Object.keys(data).length === 0);
    if (!empty) return canonical(data);
  }
  return canonical(body);
}

/** Another request got the very listing the valid request was served, whatever its HTTP code and words. */
export function handsOutSameListing(answer: Exchange, valid: Exchange): boolean {
  const served = listingContent(valid.response.json);
  return served !== undefined && listingContent(answer.response.json) === served;
}

export type Resource = 'status' | 'listing';

const EXPECTED_SUCCESS: Record<Resource, string> = {
  status: 'HTTP 2xx carrying the ticket status',
  listing: 'HTTP 2xx with a JSON body (its shape is not stated)',
};

/**
 * The resource served. A listing answered exactly as a request without credentials was (an API that refuses with HTTP
 * 200 and JSON) was not: the token made no difference.
 */
export function servesResource({ response }: Exchange, resource: Resource, refusal?: Refusal): boolean {
  if (resource === 'status') return servesStatus(response);
  const refused = refusal !== undefined && refusal.status === response.status && refusal.bodyText === response.bodyText;
  return !refused && servesListing(response);
}

export function accepted(exchange: Exchange, description: string, resource: Resource = 'status', refusal?: Refusal): CheckOutcome {
  const served = servesResource(exchange, resource, refusal);
  const expected =
    resource === 'listing' && refusal
      ? `${EXPECTED_SUCCESS.listing}, not the answer a request without credentials gets`
      : EXPECTED_SUCCESS[resource];
  return outcome(served, description, expected, describeResponse(exchange));
}

/**
 * The HTTP code and body of a refusal are not stated: any answer that does not hand out the resource is a refusal.
 * For a status, handing out means carrying a ticket status; for the listing, carrying what the valid request got.
 */
export function refused(exchange: Exchange, description: string, valid?: Exchange): CheckOutcome {
  const handedOut = valid ? handsOutSameListing(exchange, valid) : carriedStatus(exchange.response.json) !== undefined;
  return outcome(
    !handedOut,
    description,
    valid
      ? 'authentication fails: any answer without the listing the valid token got (the error code is not stated)'
      : 'authentication fails: any answer without the ticket status (the error code is not stated)',
    describeResponse(exchange),
  );
}
