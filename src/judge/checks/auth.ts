import { handedOut, isSuccessCode, type Classified, type Resource } from '../../classify/types.js';
import type { Exchange } from '../../exchange/exchange.js';
import { describeResponse, outcome, type CheckOutcome } from './outcome.js';

const EXPECTED_SUCCESS: Record<Resource, string> = {
  status: 'HTTP 2xx carrying the ticket status',
  listing: 'HTTP 2xx with a JSON body that is not a refusal (its shape is not stated)',
};

/** Why the answer is not a success, from its classification, for the Actual line. */
function unlessServed(exchange: Exchange, classified: Classified): string {
  const { meaning, origin } = classified;
  const what =
    meaning.kind === 'refused'
      ? 'refused by the API'
      : meaning.kind === 'application-error'
        ? `the application failed (${meaning.what}: ${meaning.evidence})`
        : meaning.kind === 'undecodable'
          ? `a body that cannot be read (${meaning.detail})`
          : origin.kind === 'api'
            ? meaning.kind
            : origin.evidence;
  return `${describeResponse(exchange)}: ${what}`;
}

/**
 * The request was served: a success code, and the answer hands out the resource. A success envelope without the
 * resource still shows the credentials were taken; what data lacks is the envelope checks' business.
 */
export function accepted(exchange: Exchange, classified: Classified, description: string, resource: Resource = 'status'): CheckOutcome {
  const served = isSuccessCode(exchange.response.status) && handedOut(classified, resource);
  return outcome(served, description, EXPECTED_SUCCESS[resource], served ? describeResponse(exchange) : unlessServed(exchange, classified));
}

/**
 * The HTTP code and body of a refusal are not stated: any answer that hands out neither the resource nor a success
 * envelope is a refusal. A success envelope is never a refusal, whatever its data holds; nor is the application's own
 * failure (a fatal error, an uncaught exception, its database down): it failed, where authentication was to fail.
 */
export function refused(exchange: Exchange, classified: Classified, description: string, resource: Resource = 'status'): CheckOutcome {
  const served = handedOut(classified, resource);
  const failed = classified.meaning.kind === 'application-error';
  const judged = outcome(
    !served && !failed,
    description,
    resource === 'status'
      ? 'authentication fails: any answer without the ticket status or a success envelope, not a failure of the application (the error code is not stated)'
      : 'authentication fails: any answer without the listing or a success envelope, not a failure of the application (the error code is not stated)',
    served
      ? `${describeResponse(exchange)}: handed out (${classified.meaning.kind})`
      : failed
        ? unlessServed(exchange, classified)
        : describeResponse(exchange),
  );
  return { ...judged, refusal: true };
}
