import { SUITE_VARIANTS, type CredentialVariant } from '../exchange/credentials.js';
import { SELFSERVICE_PATH, STATUS_PATH } from '../exchange/exchange.js';
import { isServed, type Classified, type Reach } from './types.js';

/**
 * What the run shows as a whole: whether the API answered at this base URL at all, and which credential forms were
 * handed each status of --status-id and the listing. A form served on a path is the positive control of every refusal
 * on that path: the Authorization header arrives there, and the resource exists. Only the API's own answers are served
 * or refused.
 */
export function deriveReach(
  classified: Classified[],
  lookUp: (path: string, credentials: CredentialVariant) => Classified | undefined,
  statusIds: readonly number[],
): Reach {
  const servedTo = (path: string): CredentialVariant[] =>
    SUITE_VARIANTS.filter((credentials) => {
      const answer = lookUp(path, credentials);
      return answer !== undefined && isServed(answer);
    });
  return {
    apiAnswered: classified.some((answer) => isServed(answer) || answer.meaning.kind === 'refused'),
    servedStatusTo: Object.fromEntries(statusIds.map((id) => [id, servedTo(STATUS_PATH(id))])),
    servedListingTo: servedTo(SELFSERVICE_PATH),
  };
}

/** The credential forms a status of the run was handed out to; none for a status the run did not list. */
export const servedStatusTo = (reach: Reach, statusId: number): CredentialVariant[] => reach.servedStatusTo[statusId] ?? [];

const STATUS_PATH_ID = /^\/api\/ticket\/status\/(\d+)$/;

/** The credential forms an API path (/api/...) was handed out to in the run: the positive control of a refusal there. */
export function servedOnPath(reach: Reach, apiPath: string): CredentialVariant[] {
  if (apiPath === SELFSERVICE_PATH) return reach.servedListingTo;
  const id = STATUS_PATH_ID.exec(apiPath)?.[1];
  // Stryker disable next-line ConditionalExpression: a path that names no status would look up the key NaN, which no status has
  return id === undefined ? [] : servedStatusTo(reach, Number(id));
}

/**
 * The forms that carried the token and were served anywhere in the run, on any status or the listing: each shows the
 * Authorization header arrives and the token is valid, whichever path it was served on.
 */
export function tokenServedTo(reach: Reach): CredentialVariant[] {
  const served = [...Object.values(reach.servedStatusTo).flat(), ...reach.servedListingTo];
  return [...new Set(served)].filter((credentials) => credentials !== 'no-header');
}
