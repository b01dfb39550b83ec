import type { Reach } from '../../classify/types.js';
import { variantLabel } from '../../exchange/credentials.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { Resource } from './auth.js';
import { describeResponse } from './outcome.js';

/**
 * The positive control of every refusal: a refusal proves something only if the resource was handed out in the same
 * run, to any credential form (the token as the password or as a Bearer token shows the header arrives and the token
 * is valid as surely as the valid form). The reason a refusal check must be skipped, or undefined when the control holds.
 */
export function missingControl(reach: Reach, resource: Resource, valid: Exchange): string | undefined {
  const served = resource === 'status' ? reach.servedStatusTo : reach.servedListingTo;
  if (served.length > 0) return undefined;
  return `no request of this run was handed the ${resource === 'status' ? 'status' : 'listing'}, with any credentials (${variantLabel('valid')}: ${describeResponse(valid).slice(0, 120)}), so a refusal proves nothing`;
}
