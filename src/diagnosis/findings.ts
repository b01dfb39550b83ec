import { cacheMark, PHP_MESSAGE } from '../classify/signatures.js';
import { exchangeKey, STATUS_PATH } from '../exchange/exchange.js';
import type { ClassifiedExchange, Diagnosis, ClassifiedExchanges, JudgedRequirement } from './types.js';

/**
 * Causes named beside the hosting stack's: each explains a failure of the API itself (how it compares the token, what
 * PHP prints into its answers, what a cache keys its answers by), so each stands whatever else was diagnosed.
 */

const SHOWN_CHARS = 160;
const briefly = (text: string): string => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);

/** The exchanges that failed checks of the requirements whose ids match, each once, in the order of their checks. */
function failedOn(
  results: JudgedRequirement[],
  matches: (id: string) => boolean,
  exchanges: ClassifiedExchanges,
): [string, ClassifiedExchange][] {
  const keys = new Set<string>();
  for (const result of results) {
    if (!matches(result.id)) continue;
    for (const check of result.checks) if (check.verdict === 'fail' && check.exchange !== undefined) keys.add(check.exchange);
  }
  return [...keys].flatMap((key) => {
    const exchange = exchanges[key];
    return exchange ? [[key, exchange] as [string, ClassifiedExchange]] : [];
  });
}

const isRequirement =
  (wanted: string) =>
  (id: string): boolean =>
    id === wanted;

/** PHP's warnings, notices or deprecations printed around the JSON (display_errors on). */
function displayErrors(exchanges: ClassifiedExchanges): Diagnosis | undefined {
  const [key, noisy] =
    Object.entries(exchanges).find(([, exchange]) => {
      // Stryker disable next-line StringLiteral: an empty text holds no PHP message
      const noise = exchange.classification.noise ?? (exchange.classification.origin.kind === 'api' ? '' : exchange.response.body);
      return PHP_MESSAGE.test(noise);
    }) ?? [];
  if (key === undefined || !noisy) return undefined;
  return {
    id: 'php-display-errors',
    party: 'target',
    confidence: 'high',
    summary:
      "PHP prints its warnings, notices or deprecations into the answers (display_errors is on): the JSON comes with text around it, which JSON clients, the vendor's among them, cannot read",
    evidence: `GET ${noisy.request.url} answered HTTP ${noisy.response.status} with ${briefly(noisy.classification.noise ?? noisy.response.body)}`,
    cites: [key],
    advice: [
      'Set display_errors = Off and log_errors = On for the PHP that runs the application (php.ini, or the PHP-FPM pool: php_admin_flag[display_errors] = off), then reload PHP-FPM: the messages go to the log instead of the answers.',
      'Then fix what the log names: a warning in production is a bug of its own.',
    ],
  };
}

/** A near-miss token served: the comparison ignores case, or compares only a part of the token. */
function looseComparison(results: JudgedRequirement[], exchanges: ClassifiedExchanges, statusId: number): Diagnosis[] {
  // Where a wrong token is served too, nothing is compared at all: authentication is not enforced.
  if (failedOn(results, isRequirement('AUTH-WRONG-TOKEN-REFUSED'), exchanges).length > 0) return [];
  // A near miss served while the token given is not says the token given is off (the stack rules name it), not that
  // the API compares loosely: a loose comparison would serve the token given too.
  const valid = exchanges[exchangeKey(STATUS_PATH(statusId), {}, 'valid')];
  if (valid && valid.classification.meaning.kind !== 'served-status') return [];
  const served = failedOn(results, isRequirement('AUTH-NEAR-MISS-TOKEN-REFUSED'), exchanges);
  const byCase = served.filter(([key]) => key.startsWith('token-case-flipped '));
  const byPart = served.filter(([key]) => key.startsWith('token-truncated ') || key.startsWith('token-extended '));
  const diagnoses: Diagnosis[] = [];
  if (byCase.length > 0) {
    diagnoses.push({
      id: 'token-compared-case-insensitively',
      party: 'target',
      confidence: 'high',
      summary:
        "the token with one letter in the other case is accepted: the token is compared without regard to case, most often by the database column's collation (MySQL's *_ci collations) or a case-insensitive comparison in code",
      cites: byCase.map(([key]) => key),
      evidence: byCase
        .map(([, exchange]) => `GET ${exchange.request.url} (${exchange.request.credentials}) answered HTTP ${exchange.response.status}`)
        .join('; '),
      advice: [
        'Compare the token byte for byte: give the token column a binary collation (utf8mb4_bin, or BINARY in the query), or look the token up by its hash and compare with hash_equals().',
      ],
    });
  }
  if (byPart.length > 0) {
    diagnoses.push({
      id: 'token-compared-by-prefix',
      party: 'target',
      confidence: 'high',
      summary:
        'a token one character shorter or longer than the real one is accepted: only a part of the token is compared (a prefix match, LIKE, a column that truncates what it stores, or a comparison of the first characters)',
      cites: byPart.map(([key]) => key),
      evidence: byPart
        .map(([, exchange]) => `GET ${exchange.request.url} (${exchange.request.credentials}) answered HTTP ${exchange.response.status}`)
        .join('; '),
      advice: [
        'Compare the whole token, and its length: an exact match (hash_equals() on hashes of the same length), never LIKE or a prefix.',
      ],
    });
  }
  return diagnoses;
}

/** A lang request answered from a cache with the answer stored for the request without lang. */
function cacheIgnoresQuery(results: JudgedRequirement[], exchanges: ClassifiedExchanges, statusId: number): Diagnosis | undefined {
  const plain = exchanges[exchangeKey(STATUS_PATH(statusId), {}, 'valid')];
  const [key, cached] =
    failedOn(results, (id) => id.startsWith('LANG-'), exchanges).find(
      ([, exchange]) => new URL(exchange.request.url).searchParams.has('lang') && cacheMark({ headers: exchange.response.headers }),
    ) ?? [];
  if (key === undefined || !cached) return undefined;
  // Stryker disable next-line StringLiteral: the answer was found by its cache mark
  const mark = cacheMark({ headers: cached.response.headers }) ?? '';
  const same = plain !== undefined && plain.response.body === cached.response.body;
  return {
    id: 'cache-ignores-query-string',
    party: 'environment',
    confidence: same ? 'high' : 'medium',
    summary: `a cache in front of the API answered the lang request from its store (${mark})${same ? ' with the very answer of the request without lang' : ''}: its cache key ignores the query string, so every language gets the first one cached`,
    evidence: `GET ${cached.request.url} answered HTTP ${cached.response.status} with ${mark}`,
    cites: [key],
    advice: [
      'Make the cache key include the query string for /api/... (Cloudflare: Caching > Cache Rules, "Cache key: query string: all"; Varnish: keep req.url whole in vcl_hash), or bypass the cache for the API paths; then purge it.',
    ],
  };
}

export function answerFindings(results: JudgedRequirement[], exchanges: ClassifiedExchanges, statusId: number): Diagnosis[] {
  return [
    displayErrors(exchanges),
    ...looseComparison(results, exchanges, statusId),
    cacheIgnoresQuery(results, exchanges, statusId),
  ].filter((diagnosis): diagnosis is Diagnosis => diagnosis !== undefined);
}
