import type { Exchange } from '../harness/exchange.js';
import { describeResponse, isObject, outcome, type CheckOutcome } from './outcome.js';

const ERROR_STATUS = /error|fail|denied|forbidden|unauthori[sz]ed|invalid/i;

/**
 * Whether the target served the call, as opposed to refusing it. A 2xx JSON answer with the success envelope is served;
 * so is one whose status value is odd (that is ENV-STATUS-SUCCESS's business) but which carries the resource.
 * Where the body shape is not shown (selfservice), a 2xx JSON answer that does not call itself an error will do.
 */
export function isSuccess(exchange: Exchange, shape: 'envelope' | 'any-json' = 'envelope'): boolean {
  return isSuccessResponse(exchange.response, shape);
}

/** isSuccess on a bare status and parsed body, for answers recorded outside a spec run. */
export function isSuccessResponse(
  { status, json }: Pick<Exchange['response'], 'status' | 'json'>,
  shape: 'envelope' | 'any-json' = 'envelope',
): boolean {
  if (status < 200 || status >= 300 || !json.ok) return false;
  const body = json.value;
  if (!isObject(body)) return shape === 'any-json';
  if (body.status === 'success') return true;
  const callsItselfAnError = typeof body.status === 'string' && ERROR_STATUS.test(body.status);
  if (shape === 'any-json') return !callsItselfAnError;
  return !callsItselfAnError && (isObject(body.data) || Array.isArray(body.data));
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
