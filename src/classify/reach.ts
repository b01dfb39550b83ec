import { SUITE_VARIANTS, type CredentialVariant } from '../exchange/credentials.js';
import { SELFSERVICE_PATH, STATUS_PATH } from '../exchange/exchange.js';
import { isServed, type Classified, type Reach } from './types.js';

/**
 * What the run shows as a whole: whether the API answered at this base URL at all, and which credential forms were
 * handed the configured status and the listing. Any form served is the positive control of every refusal: the
 * Authorization header arrives, and the resource exists. Only the API's own answers are served or refused.
 */
export function deriveReach(
  classified: Classified[],
  lookUp: (path: string, credentials: CredentialVariant) => Classified | undefined,
  statusId: number,
): Reach {
  const servedTo = (path: string): CredentialVariant[] =>
    SUITE_VARIANTS.filter((credentials) => {
      const answer = lookUp(path, credentials);
      return answer !== undefined && isServed(answer);
    });
  return {
    apiAnswered: classified.some((answer) => isServed(answer) || answer.meaning.kind === 'refused'),
    servedStatusTo: servedTo(STATUS_PATH(statusId)),
    servedListingTo: servedTo(SELFSERVICE_PATH),
  };
}
