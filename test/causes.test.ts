import { describe, expect, test } from 'vitest';
import type { Classified, FrontName } from '../src/classify/types.js';
import { contradictions } from '../src/diagnosis/causes.js';
import type { Diagnosis, DiagnosisId } from '../src/diagnosis/types.js';
import type { JudgedExchange } from '../src/judge/scenario-result.js';

/**
 * The self-tests hold every diagnosis of every server to the classification of the answers it cites (a cause that
 * says "a front blocked it" of an answer the API wrote is wrong). Here each cause meets an answer it may cite and one it
 * may not, so a reading too loose or too strict shows.
 */

type Reading = Pick<Classified, 'origin' | 'meaning'> & { status: number };

const KEY = 'valid /api/ticket/status/1?';
const api = (status: number, meaning: Classified['meaning']): Reading => ({ origin: { kind: 'api' }, meaning, status });
const front = (name: FrontName, status: number, meaning: Classified['meaning'] = { kind: 'error-page' }): Reading => ({
  origin: { kind: 'front', front: name, evidence: `HTTP ${status}: a page of the ${name}` },
  meaning,
  status,
});
const unknown = (status: number, meaning: Classified['meaning'] = { kind: 'error-page' }): Reading => ({
  origin: { kind: 'unknown', evidence: `HTTP ${status}: an HTML page` },
  meaning,
  status,
});
const REFUSED = { kind: 'refused' } as const;
const SERVED = { kind: 'served-status', id: '1' } as const;
const EMPTY = { kind: 'empty' } as const;
const REDIRECT = { kind: 'redirect', to: 'https://sso.example.com/login' } as const;

function exchangeOf({ origin, meaning, status }: Reading): JudgedExchange {
  return {
    request: { method: 'GET', url: 'http://help.example.com/api/ticket/status/1', credentials: 'valid token', headers: {} },
    response: { status, headers: {}, body: '', bodyTruncated: false },
    repro: '',
    classification: { key: KEY, origin, meaning } as Classified,
  };
}

const citing = (id: DiagnosisId, keys: string[] = [KEY]): Diagnosis => ({
  id,
  party: 'environment',
  confidence: 'high',
  summary: 's',
  evidence: 'e',
  advice: [],
  cites: keys,
});
const contradicted = (id: DiagnosisId, reading: Reading): string[] => contradictions([citing(id)], { [KEY]: exchangeOf(reading) });

/** Each cause, answers it may cite, and answers it may not. */
const READINGS: [DiagnosisId, Reading[], Reading[]][] = [
  [
    'answers-not-json',
    [api(200, { kind: 'undecodable', why: 'not-json', detail: 'd' }), unknown(200), unknown(200, EMPTY)],
    [api(401, REFUSED)],
  ],
  ['api-not-found', [front('web-server', 404), unknown(404)], [api(404, REFUSED), front('cdn', 404)]],
  ['api-path-answers-empty', [unknown(200, EMPTY)], [unknown(200)]],
  ['api-path-serves-html', [unknown(200), front('web-server', 200)], [api(200, { kind: 'error-page' }), unknown(200, EMPTY)]],
  ['api-paths-not-found', [api(404, REFUSED)], [api(401, REFUSED), unknown(404)]],
  ['api-redirects', [unknown(302, REDIRECT)], [api(401, REFUSED)]],
  ['application-failed', [api(500, { kind: 'application-error', what: 'fatal-error', evidence: 'e' })], [api(500, REFUSED)]],
  ['authentication-not-enforced', [api(200, SERVED), api(200, { kind: 'served-listing' })], [api(401, REFUSED)]],
  [
    'authorization-header-stripped',
    [api(401, REFUSED), api(403, REFUSED), unknown(401)],
    [api(404, REFUSED), api(405, REFUSED), api(401, SERVED), unknown(403), front('web-server', 401)],
  ],
  ['base-url-ends-in-api', [unknown(404)], [unknown(401)]],
  ['cache-answered', [api(401, REFUSED)], [api(200, SERVED), front('cache', 401), unknown(401, REFUSED)]],
  ['cache-ignores-query-string', [api(200, SERVED)], [unknown(200)]],
  ['captive-portal', [front('captive-portal', 200)], [front('sso', 200), unknown(200)]],
  ['catch-all-route', [unknown(200), front('web-server', 200)], [api(200, SERVED)]],
  [
    'front-blocked',
    [front('cdn', 403), front('waf', 403), front('proxy', 403), front('cache', 403), front('gateway', 403), unknown(403)],
    [front('web-server', 403), api(403, REFUSED)],
  ],
  [
    'front-blocked-some-requests',
    [
      front('waf', 403),
      front('web-server', 403),
      front('sso', 200),
      front('captive-portal', 200),
      front('maintenance', 503),
      unknown(302, REDIRECT),
    ],
    [front('php-fpm', 404), front('rate-limiter', 429), api(401, REFUSED)],
  ],
  ['front-controller-not-routed', [front('web-server', 404), unknown(404)], [api(404, REFUSED)]],
  ['front-no-route', [front('gateway', 404)], [front('web-server', 404), unknown(404)]],
  ['front-origin-unreachable', [front('cdn', 522)], [unknown(502), front('web-server', 502)]],
  ['gateway-refused', [front('gateway', 403)], [front('proxy', 403)]],
  ['maintenance', [front('maintenance', 503)], [front('web-server', 503)]],
  ['method-not-allowed', [api(405, REFUSED)], [api(404, REFUSED)]],
  ['no-api-answer', [unknown(200)], [api(401, REFUSED)]],
  ['php-cgi-no-input-file', [front('php-runtime', 404)], [front('php-fpm', 404)]],
  ['php-not-running', [front('php-runtime', 200)], [front('php-fpm', 200), unknown(200)]],
  ['php-display-errors', [api(200, SERVED), unknown(500)], []],
  ['php-fpm-access-denied', [front('php-fpm', 403)], [front('php-runtime', 403), unknown(403)]],
  ['php-fpm-script-not-found', [front('php-fpm', 404)], [front('php-runtime', 404)]],
  ['plain-http-to-tls-port', [front('web-server', 400)], [unknown(400)]],
  ['rate-limited', [front('rate-limiter', 429)], [api(429, REFUSED)]],
  ['proxy-authentication', [front('proxy', 407)], [front('proxy', 403), front('gateway', 407)]],
  ['rewrite-not-applied', [front('web-server', 404), unknown(404)], [api(404, REFUSED)]],
  [
    'server-error',
    [api(500, { kind: 'application-error', what: 'server-error', evidence: 'e' }), front('web-server', 502), unknown(503)],
    [api(499, REFUSED), front('cdn', 502), front('maintenance', 503)],
  ],
  ['single-sign-on-in-the-way', [front('sso', 200)], [front('captive-portal', 200)]],
  ['status-not-found', [api(404, REFUSED)], [api(200, SERVED), unknown(404, REFUSED)]],
  ['target-not-reachable', [unknown(502)], []],
  ['token-compared-case-insensitively', [api(200, SERVED)], [api(401, REFUSED)]],
  ['token-compared-by-prefix', [api(200, { kind: 'served-without-resource' })], [api(401, REFUSED)]],
  ['token-read-from-wrong-place', [api(401, REFUSED)], [unknown(401), unknown(401, REFUSED), api(404, REFUSED)]],
  ['token-refused', [api(403, REFUSED), unknown(401)], [api(405, REFUSED), unknown(403)]],
  ['unrecognised-answer', [unknown(200, { kind: 'undecodable', why: 'encoding', detail: 'd' })], []],
  ['web-server-error', [front('web-server', 500), unknown(500)], [api(500, REFUSED)]],
  ['web-server-forbidden', [front('web-server', 403)], [unknown(403)]],
  ['web-server-password', [front('web-server', 401)], [front('proxy', 401)]],
];

const shown = ({ origin, meaning, status }: Reading): string =>
  `${origin.kind === 'front' ? origin.front : origin.kind} ${meaning.kind} ${status}`;

describe('a cause names only answers classified the way it reads them', () => {
  test.each(READINGS.map(([id, may, mayNot]) => [id, may, mayNot] as const))('%s', (id, may, mayNot) => {
    for (const reading of may) expect(contradicted(id, reading), shown(reading)).toEqual([]);
    for (const reading of mayNot) {
      expect(contradicted(id, reading), shown(reading)).toEqual([
        `${id} cites ${KEY}, classified ${JSON.stringify({ key: KEY, origin: reading.origin, meaning: reading.meaning })} with HTTP ${reading.status}`,
      ]);
    }
  });

  test('a cause citing an answer the run does not hold, or holds unclassified, is said so; one citing none is not', () => {
    const unclassified = { ...exchangeOf(api(200, SERVED)), classification: undefined };
    const other = 'no-header /api/ticket/status/1?';
    expect(
      contradictions([citing('php-display-errors', [KEY, other]), { ...citing('server-error'), cites: undefined }], {
        [KEY]: unclassified,
      }),
    ).toEqual([
      `php-display-errors cites ${KEY}, which the run has no classified answer for`,
      `php-display-errors cites ${other}, which the run has no classified answer for`,
    ]);
  });
});
