import type { JudgedExchange, RecordedCheck } from '../../src/judge/scenario-result.js';
import { buildReport, diagnoseFacts } from '../../src/pipeline/pipeline.js';
import type { DiagnosedPass, Report } from '../../src/report/model/types.js';
import { createSecretScanner } from '../../src/secrets/scanner.js';

const BASE = 'http://127.0.0.1:9/';

function exchange(path: string, body: string, status: number, serverHeader: string): JudgedExchange {
  return {
    request: {
      method: 'GET',
      url: `${BASE}${path.slice(1)}`,
      credentials: 'valid token, configured password',
      headers: { accept: 'application/json', authorization: 'Basic <redacted>' },
    },
    response: { status, headers: { 'content-type': 'text/plain', server: serverHeader }, body, bodyTruncated: false },
    repro: `curl -sS -u '<API_TOKEN>:x' '${BASE}${path.slice(1)}'`,
  };
}

const VALID_STATUS = 'valid /api/ticket/status/1?';
const FIRST_STATUS = 'valid /api/ticket/status/1?lang=de';

/**
 * A report built without a run, as a run builds it (so frozen): one MUST failed on an answer whose body, header and
 * description the target chose (so a test can make them hostile), one SHOULD broken, one MUST passed.
 */
export function sampleReport(hostile = 'Unauthorized'): Report {
  return buildReport({ passes: [samplePass(hostile)], scanner: createSecretScanner([]) });
}

/** The pass sampleReport is built from. */
export function samplePass(hostile = 'Unauthorized'): DiagnosedPass {
  const now = new Date('2026-01-02T03:04:05Z');
  const failed: RecordedCheck = {
    requirement: 'AUTH-TOKEN-ACCEPTED',
    scenario: 'auth-valid-token',
    verdict: 'fail',
    description: 'GET with valid token, configured password succeeds',
    expected: 'HTTP 2xx with status "success"',
    actual: `HTTP 401 (text/plain) ${hostile}`,
    exchange: VALID_STATUS,
  };
  return diagnoseFacts(
    {
      suite: { name: 'ticketing-conformance', version: 'test' },
      target: { baseUrl: BASE, embeddedReference: false },
      options: { statusId: 1, strict: false, timeoutMs: 1000, maxRequests: 40, repeat: 1 },
      startedAt: now,
      finishedAt: now,
      complete: true,
      scenarios: [
        {
          id: 'auth-valid-token',
          title: 'valid token',
          requirements: ['AUTH-TOKEN-ACCEPTED'],
          requestsSent: 2,
          checks: [failed],
          exchanges: { [VALID_STATUS]: exchange('/api/ticket/status/1', hostile, 401, hostile) },
        },
        {
          id: 'status-open-first',
          title: 'first status is Open',
          requirements: ['STATUS-OPEN-FIRST'],
          requestsSent: 2,
          checks: [
            {
              requirement: 'STATUS-OPEN-FIRST',
              scenario: 'status-open-first',
              verdict: 'fail',
              description: 'the first status is named "Open"',
              expected: '"Open"',
              actual: '"Offen"',
              exchange: FIRST_STATUS,
            },
          ],
          exchanges: { [FIRST_STATUS]: exchange('/api/ticket/status/1?lang=de', '{"status":"success"}', 200, 'nginx') },
        },
        {
          id: 'env-json',
          title: 'JSON body',
          requirements: ['ENV-JSON'],
          requestsSent: 2,
          checks: [{ requirement: 'ENV-JSON', scenario: 'env-json', verdict: 'pass', description: 'the body parses as JSON' }],
          exchanges: {},
        },
      ],
      errors: [],
    },
    { statusId: [1] },
  );
}
