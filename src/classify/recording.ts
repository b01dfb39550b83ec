import { SUITE_VARIANTS, type CredentialVariant } from '../exchange/credentials.js';
import { exchangeKey, SELFSERVICE_PATH, STATUS_PATH, type Exchange } from '../exchange/exchange.js';
import type { Recording } from '../record/recording.js';
import { apiPathOf, classifyExchange, listingContent, listingData } from './classify.js';
import { deriveReach } from './reach.js';
import type { Classification, Classified, Meaning } from './types.js';

/** One recorded answer and what it means, which the run as a whole may still change. */
interface RecordedClassification {
  exchange: Exchange;
  classified: Classified;
}

/** The classification with another meaning, who answered and the text around its JSON as they were. */
const withMeaning = ({ origin, noise }: Classified, meaning: Meaning): Classified =>
  noise === undefined ? { origin, meaning } : { origin, meaning, noise };

const SUITE_VARIANT_SET: ReadonlySet<CredentialVariant> = new Set(SUITE_VARIANTS);

/**
 * The classification stage: every recorded answer classified once, then what the run shows as a whole. A listing
 * answered exactly as the status is answered without credentials (an API refusing with HTTP 200 and JSON) was refused.
 */
export function classifyRecording(recording: Recording, statusIds: readonly number[]): Classification {
  const entries = new Map<string, RecordedClassification>();
  for (const [key, answer] of Object.entries(recording.answers)) {
    if ('exchange' in answer) entries.set(key, { exchange: answer.exchange, classified: classifyExchange(answer.exchange) });
  }
  // The first status holds the run's own probes, the refusal without credentials among them.
  const [statusId] = statusIds;
  const refusal = statusId === undefined ? undefined : entries.get(exchangeKey(STATUS_PATH(statusId), {}, 'no-header'));
  if (refusal?.classified.meaning.kind === 'refused') {
    const { status, bodyText } = refusal.exchange.response;
    for (const entry of entries.values()) {
      const { response } = entry.exchange;
      if (entry.classified.meaning.kind === 'served-listing' && response.status === status && response.bodyText === bodyText) {
        entry.classified = withMeaning(entry.classified, { kind: 'refused' });
      }
    }
  }
  // The listing the valid token got, handed to another request under any code and words, was handed out: under words
  // of refusal, in a redirect's body (PHP that sends Location and goes on), in an error's.
  const validListing = entries.get(exchangeKey(SELFSERVICE_PATH, {}, 'valid'));
  if (validListing && listingData(validListing.exchange) !== undefined) {
    // Its content is made only when another answer holds a listing to compare with it.
    let served: string | undefined;
    for (const entry of entries.values()) {
      if (apiPathOf(entry.exchange.request.path) !== SELFSERVICE_PATH) continue;
      const handedOut =
        entry === validListing ||
        (listingData(entry.exchange) !== undefined &&
          listingContent(entry.exchange) === (served ??= listingContent(validListing.exchange)));
      if (handedOut && entry.classified.meaning.kind !== 'served-listing') {
        entry.classified = withMeaning(entry.classified, { kind: 'served-listing' });
      }
    }
  }
  const answers = Object.fromEntries(Array.from(entries, ([key, { classified }]) => [key, classified]));
  // What a named client's request (a --profile's) got says nothing the suite's own requests must not say alone.
  const suiteAnswers: Classified[] = [];
  for (const { exchange, classified } of entries.values()) {
    if (SUITE_VARIANT_SET.has(exchange.request.credentials)) suiteAnswers.push(classified);
  }
  const lookUp = (path: string, credentials: CredentialVariant): Classified | undefined => answers[exchangeKey(path, {}, credentials)];
  return { answers, reach: deriveReach(suiteAnswers, lookUp, statusIds) };
}
