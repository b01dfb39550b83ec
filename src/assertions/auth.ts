import type { Exchange } from '../harness/exchange.js';
import { describeResponse, isObject, jsonBody, outcome, type CheckOutcome } from './outcome.js';

/**
 * The document's notion of a successful call: a 2xx JSON answer with the success envelope.
 * Where the body shape is not shown (selfservice), a JSON answer that does not call itself an error will do.
 */
export function isSuccess(exchange: Exchange, shape: 'envelope' | 'any-json' = 'envelope'): boolean {
  const body = jsonBody(exchange);
  const { status } = exchange.response;
  if (status < 200 || status >= 300 || !exchange.response.json.ok) return false;
  if (shape === 'any-json') return !(isObject(body) && 'status' in body && body.status !== 'success');
  return isObject(body) && body.status === 'success';
}

const EXPECTED_SUCCESS = {
  envelope: 'HTTP 2xx with status "success"',
  'any-json': 'HTTP 2xx with a JSON body that is not an error (body shape not stated)',
};

export function accepted(exchange: Exchange, description: string, shape: 'envelope' | 'any-json' = 'envelope'): CheckOutcome {
  return outcome(isSuccess(exchange, shape), description, EXPECTED_SUCCESS[shape], describeResponse(exchange));
}

/** The HTTP code of a refusal is not stated, so anything that is not a success counts as a refusal. */
export function refused(exchange: Exchange, description: string, shape: 'envelope' | 'any-json' = 'envelope'): CheckOutcome {
  return outcome(
    !isSuccess(exchange, shape),
    description,
    'authentication fails: any answer but a success (the error code is not stated)',
    describeResponse(exchange),
  );
}

/** Same status and body: the server could not tell the two requests apart. */
export function answeredAlike(first: Exchange, second: Exchange): boolean {
  return first.response.status === second.response.status && first.response.bodyText === second.response.bodyText;
}
