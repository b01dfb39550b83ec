import { servedStatusTo } from '../../classify/reach.js';
import type { Reach } from '../../classify/types.js';
import { variantLabel, type CredentialVariant } from '../../exchange/credentials.js';
import type { Exchange } from '../../exchange/exchange.js';
import { describeResponse } from './outcome.js';

/**
 * The positive control of every refusal: a refusal proves something only if the resource it asked for was handed out
 * in the same run, to any credential form (the token as the password or as a Bearer token shows the header arrives and
 * the token is valid as surely as the valid form). The reason a refusal check must be skipped, or undefined when the
 * control holds.
 */
function missingControl(served: CredentialVariant[], what: string, valid: Exchange): string | undefined {
  if (served.length > 0) return undefined;
  return `no request of this run was handed ${what}, with any credentials (${variantLabel('valid')}: ${describeResponse(valid).replace(/\s+/g, ' ').slice(0, 120)}), so a refusal proves nothing`;
}

/** The control of a refusal of one status: that status handed out in this run, whatever another status got. */
export const missingStatusControl = (reach: Reach, statusId: number, valid: Exchange): string | undefined =>
  missingControl(servedStatusTo(reach, statusId), `status ${statusId}`, valid);

export const missingListingControl = (reach: Reach, valid: Exchange): string | undefined =>
  missingControl(reach.servedListingTo, 'the listing', valid);
