import { describe, expect, test, vi } from 'vitest';
import type { LoadedBaseline } from '../src/config/baseline.js';
import type { HarnessErrorCode, RunError } from '../src/errors.js';
import { variantLabel } from '../src/exchange/credentials.js';
import { exchangeKey, type Exchange } from '../src/exchange/exchange.js';
import type { JudgedExchange, RecordedCheck, ScenarioResult } from '../src/judge/scenario-result.js';
import { buildReport, type ReportInput, type ReportParts } from '../src/report/model/build.js';
import { diagnoseFacts } from '../src/pipeline/pipeline.js';
import { classifyExchange } from '../src/classify/classify.js';
import { cutShort, mergePasses } from '../src/report/model/repeat.js';
import { exchangeOf, type DiagnosedPass, type Report, type RequirementResult, type Verdict } from '../src/report/model/types.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { contentHash } from '../src/report/model/integrity.js';
import { requirementVerdict, runOutcome } from '../src/report/model/verdicts.js';
import { failsRun, outcomeOf, waivedRequirements } from '../src/report/model/outcomes.js';
import { documentCatalog as catalog, requirement } from '../src/requirements/catalog.js';
import type { Level } from '../src/requirements/types.js';
import { answeredWith, recordedAnswer } from './helpers/answers.js';
import { unfrozenPaths } from './helpers/frozen.js';

const BASE_URL = 'http://127.0.0.1:44187/';
const MUST = catalog.filter((entry) => entry.level === 'MUST');
const A_MUST = requirement('STATUS-COLOUR');
const A_SHOULD = requirement('ENV-NO-BOM');
const AN_INFO = requirement('ENV-CONTENT-TYPE');
const idsAt = (level: Level): string[] => catalog.filter((entry) => entry.level === level).map((entry) => entry.id);

/** What a check's exchange field holds until scenarioOf keys it: the request's key and the exchange as judged. */
interface Unkeyed {
  key: string;
  exchange: JudgedExchange;
}

/** One check as a scenario records it; it names the exchange it judged, which scenarioOf keys as a run does. */
function check(id: string, verdict: RecordedCheck['verdict'], exchange?: Exchange, extra: Partial<RecordedCheck> = {}): RecordedCheck {
  const [path = '', query = ''] = exchange?.request.path.split('?') ?? [];
  const unkeyed: Unkeyed | undefined = exchange && {
    key: exchangeKey(path, Object.fromEntries(new URLSearchParams(query)), exchange.request.credentials),
    exchange: {
      request: {
        method: exchange.request.method,
        url: exchange.request.url,
        credentials: variantLabel(exchange.request.credentials),
        headers: exchange.request.headers,
      },
      response: {
        status: exchange.response.status,
        headers: exchange.response.headers,
        body: exchange.response.bodyText,
        bodyTruncated: exchange.response.bodyTruncated,
      },
      repro: exchange.request.curl,
      classification: classifyExchange(exchange),
    },
  };
  return {
    requirement: id,
    scenario: `judges-${id.toLowerCase()}`,
    verdict,
    description: `${id} ${verdict}`,
    ...(unkeyed ? { exchange: JSON.stringify(unkeyed) } : {}),
    ...extra,
  };
}

const errorCheck = (id: string, code: HarnessErrorCode, party: RunError['party'] = 'target'): RecordedCheck =>
  check(id, 'error', undefined, { error: { code, message: `${code.toLowerCase()} happened`, hint: 'try again', party } });

/** A MUST's check of an answer a front gave, as the scenario harness records it: not judged, the front named. */
const notJudged = (id: string, exchange: Exchange): RecordedCheck =>
  check(id, 'error', exchange, {
    error: { code: 'HARNESS_NOT_THE_API', message: 'not judged: a front answered', hint: 'see the diagnosis', party: 'environment' },
  });

/**
 * The checks as one scenario hands them back: each exchange under its request's key. A run sends a request once, so
 * one key is one answer; a test that judges the same request answered two ways gets a second key for the second.
 */
function scenarioOf(checks: RecordedCheck[], extra: Partial<ScenarioResult> = {}): ScenarioResult {
  const exchanges: Record<string, JudgedExchange> = {};
  const keyed = checks.map((entry) => {
    if (entry.exchange === undefined) return entry;
    const { key, exchange } = JSON.parse(entry.exchange) as Unkeyed;
    let unique = key;
    for (let n = 2; exchanges[unique] && JSON.stringify(exchanges[unique]) !== JSON.stringify(exchange); n += 1) unique = `${key} #${n}`;
    exchanges[unique] = exchange;
    return { ...entry, exchange: unique };
  });
  return {
    id: 'scenario',
    title: 'scenario',
    requirements: [...new Set(checks.map((entry) => entry.requirement))],
    checks: keyed,
    exchanges,
    requestsSent: checks.length,
    ...extra,
  };
}

function passOf(checks: RecordedCheck[], input: Partial<ReportInput> = {}, strict = false): DiagnosedPass {
  const facts: ReportInput = {
    suite: { name: 'ticketing-conformance', version: 'test' },
    target: { baseUrl: BASE_URL, embeddedReference: false },
    options: { statusId: 1, strict, timeoutMs: 1000, maxRequests: 40, repeat: 1 },
    startedAt: new Date('2026-11-25T10:00:00.000Z'),
    finishedAt: new Date('2026-11-25T10:00:02.500Z'),
    complete: true,
    scenarios: [scenarioOf(checks)],
    errors: [],
    ...input,
  };
  const { statusId, profile } = facts.options;
  return diagnoseFacts(facts, { statusId: [statusId], ...(profile ? { profile } : {}) });
}

const NO_SECRETS = createSecretScanner([]);

/** SHA-256 fingerprints of two TLS certificates, as the report's schema writes them. */
const CERTIFICATE_A = Array(32).fill('AA').join(':');
const CERTIFICATE_B = Array(32).fill('CD').join(':');

/** The report of these passes, built as a run builds it. */
const built = (passes: DiagnosedPass[], parts: Omit<ReportParts, 'passes' | 'scanner'> = {}): Report =>
  buildReport({ passes, scanner: NO_SECRETS, ...parts });

function reportOf(
  checks: RecordedCheck[],
  input: Partial<ReportInput> = {},
  strict = false,
  parts: Omit<ReportParts, 'passes' | 'scanner'> = {},
): Report {
  return built([passOf(checks, input, strict)], parts);
}

const resultOf = (report: Pick<Report, 'requirements'>, id: string): RequirementResult => {
  const found = report.requirements.find((result) => result.id === id);
  if (!found) throw new Error(`no ${id} in the report`);
  return found;
};

const VALID = recordedAnswer('valid /api/ticket/status/1?');
const WRONG_TOKEN = recordedAnswer('wrong-token /api/ticket/status/1?');
const NO_HEADER = recordedAnswer('no-header /api/ticket/status/1?');
const COLOUR_MISSING = recordedAnswer('valid /api/ticket/status/1?', 'colour-missing');
const FRENCH_WITHOUT_COLOUR = recordedAnswer('valid /api/ticket/status/1?lang=fr', 'colour-missing');
const APACHE_LISTING = answeredWith(recordedAnswer('valid /api/selfservice/type?'), {
  headers: { 'content-type': 'application/json', server: 'Apache' },
});
const stripped = (key: string): Exchange => recordedAnswer(key, 'authorization-stripped');

/** Every requirement passed on the reference server's answers. */
const allPassed = (): RecordedCheck[] => catalog.map((entry) => check(entry.id, 'pass', VALID));
/** The reference server's answers, with the colour gone from the status. */
const colourMissing = (): RecordedCheck[] =>
  allPassed().map((entry) => (entry.requirement === 'STATUS-COLOUR' ? check('STATUS-COLOUR', 'fail', COLOUR_MISSING) : entry));

describe("a requirement's verdict from its checks", () => {
  test('a failed check fails a MUST, warns on a SHOULD and informs on an INFO requirement', () => {
    expect(requirementVerdict(A_MUST, [check('x', 'pass'), check('x', 'fail')])).toBe('fail');
    expect(requirementVerdict(A_SHOULD, [check('x', 'fail')])).toBe('warn');
    expect(requirementVerdict(AN_INFO, [check('x', 'fail')])).toBe('info');
  });

  test.each([
    [['fail', 'error', 'pass'], 'fail'],
    [['error', 'pass', 'info'], 'error'],
    [['skip', 'pass', 'info'], 'pass'],
    [['skip', 'info'], 'info'],
    [['skip'], 'skip'],
    [[], 'skip'],
  ] as [RecordedCheck['verdict'][], Verdict][])('checks %j make a MUST %s', (verdicts, verdict) => {
    expect(
      requirementVerdict(
        A_MUST,
        verdicts.map((entry) => check(A_MUST.id, entry)),
      ),
    ).toBe(verdict);
  });
});

describe('what fails the run', () => {
  const result = (verdict: Verdict, level: Level, checks: RecordedCheck['verdict'][] = []) => ({
    verdict,
    level,
    checks: checks.map((entry) => check('x', entry)),
  });

  test.each([
    [result('fail', 'MUST'), false, true],
    [result('pass', 'MUST'), true, false],
    [result('error', 'MUST'), true, false],
    [result('skip', 'MUST'), true, false],
    [result('warn', 'SHOULD'), false, false],
    [result('warn', 'SHOULD'), true, true],
    [result('info', 'INFO'), true, false],
    [result('flaky', 'MUST', ['pass', 'fail']), false, true],
    [result('flaky', 'MUST', ['pass', 'error']), true, false],
    [result('flaky', 'SHOULD', ['pass', 'fail']), false, false],
    [result('flaky', 'SHOULD', ['pass', 'fail']), true, true],
    [result('flaky', 'INFO', ['pass', 'fail']), true, false],
  ])('%j under --strict %s fails the run: %s', (entry, strict, fails) => {
    expect(failsRun(entry, strict)).toBe(fails);
  });

  test.each([
    [result('pass', 'MUST'), false, false, 'passed'],
    [result('fail', 'MUST'), false, false, 'failed'],
    [result('fail', 'MUST'), false, true, 'waived'],
    [result('warn', 'SHOULD'), false, false, 'warned'],
    [result('warn', 'CLIENT'), false, false, 'warned'],
    [result('warn', 'SHOULD'), true, false, 'failed'],
    [result('warn', 'CLIENT'), true, false, 'failed'],
    [result('warn', 'SHOULD'), true, true, 'waived'],
    [result('skip', 'MUST'), true, false, 'skipped'],
    [result('info', 'INFO'), true, false, 'observed'],
    [result('error', 'MUST'), false, false, 'unjudged'],
    [result('error', 'INFO'), false, false, 'unjudged'],
    [result('flaky', 'MUST', ['pass', 'fail']), false, false, 'failed'],
    [result('flaky', 'MUST', ['pass', 'error']), false, false, 'unjudged'],
    [result('flaky', 'SHOULD', ['pass', 'fail']), false, false, 'unjudged'],
    [result('flaky', 'SHOULD', ['pass', 'fail']), true, false, 'failed'],
    [result('flaky', 'INFO', ['pass', 'fail']), true, false, 'observed'],
  ] as const)('%j under --strict %s, waived %s, is %s to the gate and in every view', (entry, strict, waived, outcome) => {
    expect(outcomeOf(entry, strict, waived)).toBe(outcome);
  });

  test('the gate and the views read the one rule: the run fails exactly when some requirement is failed', () => {
    const verdicts: [Verdict, Level, RecordedCheck['verdict'][]][] = [
      ['warn', 'SHOULD', ['fail']],
      ['warn', 'CLIENT', ['fail']],
      ['fail', 'MUST', ['fail']],
      ['flaky', 'SHOULD', ['pass', 'fail']],
    ];
    for (const [verdict, level, checks] of verdicts) {
      for (const strict of [false, true]) {
        const results = [
          { ...requirement('STATUS-ID'), verdict: 'pass', checks: [check('STATUS-ID', 'pass')] },
          { ...requirement('STATUS-COLOUR'), ...result(verdict, level, checks) },
        ] as RequirementResult[];
        const failed = results.some((entry) => outcomeOf(entry, strict, false) === 'failed');
        expect({ verdict, level, strict, exitCode: runOutcome(results, strict, []).exitCode === 1 }).toEqual({
          verdict,
          level,
          strict,
          exitCode: failed,
        });
      }
    }
  });

  test('only known failures of the baseline are waived', () => {
    const entry = (requirementId: string, outcome: 'known' | 'expired' | 'fixed' | 'not-judged') => ({
      requirement: requirementId,
      reason: 'r',
      owner: 'o',
      expires: '2030-01-01',
      outcome,
      note: 'n',
    });
    const baseline = {
      file: 'b.json',
      entries: [
        entry('STATUS-COLOUR', 'known'),
        entry('STATUS-ID', 'expired'),
        entry('STATUS-NAME', 'fixed'),
        entry('ENV-JSON', 'not-judged'),
      ],
    };
    expect([...waivedRequirements({ baseline })]).toEqual(['STATUS-COLOUR']);
    expect(waivedRequirements({}).size).toBe(0);
  });
});

describe("the run's verdict and exit code", () => {
  const must = (verdict: Verdict, id = 'STATUS-COLOUR', checks: RecordedCheck['verdict'][] = [verdict === 'warn' ? 'fail' : 'pass']) =>
    ({ ...requirement(id), verdict, checks: checks.map((entry) => check(id, entry)) }) as RequirementResult;
  const should = (verdict: Verdict, checks: RecordedCheck['verdict'][] = ['fail']) =>
    ({ ...requirement('ENV-NO-BOM'), verdict, checks: checks.map((entry) => check('ENV-NO-BOM', entry)) }) as RequirementResult;
  const info = (verdict: Verdict) =>
    ({ ...requirement('ENV-CONTENT-TYPE'), verdict, checks: [check('ENV-CONTENT-TYPE', 'fail')] }) as RequirementResult;
  const runError = (code: HarnessErrorCode): RunError => ({ code, message: 'm', hint: 'h', party: 'suite' });
  const conformant = { verdict: 'conformant', exitCode: 0 };
  const notConformant = { verdict: 'not-conformant', exitCode: 1 };
  const inconclusive = { verdict: 'inconclusive', exitCode: 2 };

  test('a passed MUST with nothing failed is conformant; without any MUST passed there is no verdict', () => {
    expect(runOutcome([must('pass'), should('warn'), info('info')], false, [])).toEqual(conformant);
    expect(runOutcome([must('skip'), should('pass')], false, [])).toEqual(inconclusive);
    expect(runOutcome([], false, [])).toEqual(inconclusive);
  });

  test('a MUST failed is not conformant, and so is a SHOULD under --strict', () => {
    expect(runOutcome([must('pass', 'STATUS-ID'), must('fail')], false, [])).toEqual(notConformant);
    expect(runOutcome([must('pass'), should('warn')], true, [])).toEqual(notConformant);
    // A new failure outweighs errors: what failed is known to be wrong.
    expect(runOutcome([must('fail'), must('error', 'STATUS-ID')], false, [runError('HARNESS_TIMEOUT')])).toEqual(notConformant);
  });

  test('an error, a run error or a flaky MUST or SHOULD leaves no verdict; a flaky INFO does not', () => {
    expect(runOutcome([must('pass'), must('error', 'STATUS-ID')], false, [])).toEqual(inconclusive);
    expect(runOutcome([must('pass')], false, [runError('HARNESS_TIMEOUT')])).toEqual(inconclusive);
    expect(runOutcome([must('pass'), should('flaky', ['pass', 'error'])], false, [])).toEqual(inconclusive);
    expect(runOutcome([must('pass'), info('flaky')], false, [])).toEqual(conformant);
  });

  test('a leaked secret, the deadline, or an API never reached give no verdict, whatever failed', () => {
    expect(runOutcome([must('fail')], false, [runError('HARNESS_SECRET_LEAK')])).toEqual(inconclusive);
    expect(runOutcome([must('fail')], false, [runError('HARNESS_DEADLINE')])).toEqual(inconclusive);
    expect(runOutcome([must('fail')], false, [], new Set(), true)).toEqual(inconclusive);
    expect(runOutcome([must('pass')], false, [], new Set(), true)).toEqual(inconclusive);
  });

  test('failures the baseline waives are still not conformant, but pass the gate unless something errored', () => {
    const waived = new Set(['STATUS-COLOUR']);
    expect(runOutcome([must('pass', 'STATUS-ID'), must('fail')], false, [], waived)).toEqual({ verdict: 'not-conformant', exitCode: 0 });
    expect(runOutcome([must('pass', 'STATUS-ID'), must('fail'), must('fail', 'STATUS-NAME')], false, [], waived)).toEqual(notConformant);
    expect(runOutcome([must('fail'), must('error', 'STATUS-ID')], false, [], waived)).toEqual(inconclusive);
    expect(runOutcome([must('fail')], false, [runError('HARNESS_TIMEOUT')], waived)).toEqual(inconclusive);
  });
});

describe('a report from the checks of a run', () => {
  test('the report holds each exchange its checks name once, and none a scenario did not hand back', () => {
    const handed = scenarioOf(allPassed());
    const key = handed.checks[0]?.exchange ?? '';
    expect(Object.keys(reportOf([], { scenarios: [handed, scenarioOf(allPassed())] }).exchanges)).toEqual([key]);
    const withheld = { ...handed, exchanges: {} };
    expect(Object.keys(reportOf([], { scenarios: [withheld] }).exchanges)).toEqual([]);
  });

  test('every requirement passed: conformant, with totals, the requests sent and the target fingerprint', () => {
    const checks = allPassed();
    const report = built([
      diagnoseFacts(
        {
          suite: { name: 'ticketing-conformance', version: 'test' },
          runId: '20aca2a7bca5cfd4bbd0fd7b7b80dd80',
          target: { baseUrl: BASE_URL, embeddedReference: true },
          options: { statusId: 1, strict: false, timeoutMs: 1000, maxRequests: 40, repeat: 1 },
          startedAt: new Date('2026-11-25T10:00:00.000Z'),
          finishedAt: new Date('2026-11-25T10:00:02.500Z'),
          complete: true,
          scenarios: [
            scenarioOf(checks.slice(0, 10), { requestsSent: 7, tlsCertificates: [CERTIFICATE_A] }),
            // A run sends each request once: the answer with the Server header is another request's.
            scenarioOf(
              checks.slice(10).map((entry) => check(entry.requirement, 'pass', APACHE_LISTING)),
              {
                requestsSent: 21,
                tlsCertificates: [CERTIFICATE_A, CERTIFICATE_B],
              },
            ),
            scenarioOf([], { requestsSent: 3 }),
          ],
          errors: [],
        },
        { statusId: [1] },
      ),
    ]);
    expect(report).toMatchObject({
      schemaVersion: 2,
      runId: '20aca2a7bca5cfd4bbd0fd7b7b80dd80',
      verdict: 'conformant',
      exitCode: 0,
      summary: 'This deployment is conformant: every MUST requirement passed.',
      startedAt: '2026-11-25T10:00:00.000Z',
      finishedAt: '2026-11-25T10:00:02.500Z',
      durationMs: 2500,
      complete: true,
      requests: { sent: 21 },
      target: {
        baseUrl: BASE_URL,
        embeddedReference: true,
        fingerprint: { server: ['Apache'], tlsCertificateSha256: [CERTIFICATE_A, CERTIFICATE_B] },
      },
      totals: { pass: catalog.length, fail: 0, warn: 0, info: 0, skip: 0, error: 0, flaky: 0 },
      diagnoses: [],
    });
    expect(report.requirements.map((result) => result.id)).toEqual(catalog.map((entry) => entry.id));
    expect(report.requirements.filter((result) => 'party' in result)).toEqual([]);
    expect(report.integrity?.catalog).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test('HTTP 429 answers and the time waited for them are counted only when there were any', () => {
    const report = reportOf(allPassed(), {
      scenarios: [
        scenarioOf(allPassed(), { requestsSent: 30, rateLimited: 2, waitedMs: 1500 }),
        scenarioOf([], { requestsSent: 31, rateLimited: 3, waitedMs: 900 }),
      ],
    });
    expect(report.requests).toEqual({ sent: 31, rateLimited: 3, waitedMs: 1500 });
    expect(reportOf(allPassed()).requests).toEqual({ sent: catalog.length });
    expect(reportOf(allPassed(), { scenarios: [] }).requests).toEqual({ sent: 0 });
    expect(reportOf(allPassed()).runId).toBeUndefined();
    expect('runId' in reportOf(allPassed())).toBe(false);
  });

  test('requirements no scenario judged are skipped, and the summary counts the MUSTs among them', () => {
    const judged = allPassed().filter((entry) => entry.requirement.startsWith('AUTH-'));
    const report = reportOf(judged);
    const unjudgedMust = MUST.filter((entry) => !entry.id.startsWith('AUTH-')).length;
    expect(report.verdict).toBe('conformant');
    expect(report.summary).toBe(
      `This deployment is conformant on what could be checked; ${unjudgedMust} MUST requirement(s) could not be judged (skipped).`,
    );
    expect(resultOf(report, 'STATUS-COLOUR')).toMatchObject({
      verdict: 'skip',
      checks: [{ requirement: 'STATUS-COLOUR', scenario: '-', verdict: 'skip', description: 'not run' }],
    });
    expect(resultOf(reportOf(judged, { complete: false }), 'STATUS-COLOUR').checks[0]?.description).toBe('not run: the run stopped early');
    expect(report.totals.skip).toBe(catalog.length - judged.length);
  });

  test("a failure on the target's own answer is the target's, named in the summary", () => {
    const report = reportOf(colourMissing());
    expect(report).toMatchObject({
      verdict: 'not-conformant',
      exitCode: 1,
      summary: 'Not conformant: 1 requirement(s) failed (STATUS-COLOUR).',
    });
    expect(resultOf(report, 'STATUS-COLOUR')).toMatchObject({ verdict: 'fail', party: 'target' });
    expect(report.totals).toMatchObject({ pass: catalog.length - 1, fail: 1 });
  });

  test('the summary names three failures and counts the rest; a SHOULD warns without failing the run', () => {
    const failing = ['STATUS-ID', 'STATUS-NAME', 'STATUS-COLOUR', 'STATUS-ORDER', 'ENV-NO-BOM'];
    const checks = allPassed().map((entry) =>
      failing.includes(entry.requirement) ? check(entry.requirement, 'fail', COLOUR_MISSING) : entry,
    );
    const report = reportOf(checks);
    expect(report.summary).toBe('Not conformant: 4 requirement(s) failed (STATUS-ID, STATUS-NAME, STATUS-COLOUR and 1 more).');
    expect(resultOf(report, 'ENV-NO-BOM')).toMatchObject({ verdict: 'warn', party: 'target' });
    const strict = reportOf(checks, {}, true);
    expect(strict.summary).toBe('Not conformant: 5 requirement(s) failed (ENV-NO-BOM, STATUS-ID, STATUS-NAME and 2 more).');
    const three = reportOf(checks.filter((entry) => !['STATUS-ORDER', 'ENV-NO-BOM'].includes(entry.requirement)));
    expect(three.summary).toBe('Not conformant: 3 requirement(s) failed (STATUS-ID, STATUS-NAME, STATUS-COLOUR).');
  });

  test('with the Authorization header stripped, what failed on the refusal everyone gets is the environment', () => {
    const checks = allPassed().map((entry) => {
      switch (entry.requirement) {
        case 'AUTH-TOKEN-ACCEPTED':
          return check('AUTH-TOKEN-ACCEPTED', 'fail', stripped('valid /api/ticket/status/1?'));
        case 'AUTH-PASSWORD-IGNORED':
          return check('AUTH-PASSWORD-IGNORED', 'fail', stripped('password-empty /api/ticket/status/1?'));
        case 'AUTH-MISSING-HEADER-REFUSED':
          return check('AUTH-MISSING-HEADER-REFUSED', 'pass', stripped('no-header /api/ticket/status/1?'));
        case 'AUTH-WRONG-TOKEN-REFUSED':
          return check('AUTH-WRONG-TOKEN-REFUSED', 'pass', WRONG_TOKEN);
        case 'STATUS-COLOUR':
          // Judged on the answer to lang, which the target served without the colour.
          return check('STATUS-COLOUR', 'fail', FRENCH_WITHOUT_COLOUR);
        default:
          return check(entry.requirement, 'pass');
      }
    });
    const report = reportOf(checks);
    const diagnosis = report.diagnoses[0];
    expect(diagnosis?.id).toBe('authorization-header-stripped');
    expect(resultOf(report, 'AUTH-TOKEN-ACCEPTED').party).toBe('environment');
    expect(resultOf(report, 'AUTH-PASSWORD-IGNORED').party).toBe('environment');
    expect(resultOf(report, 'STATUS-COLOUR').party).toBe('target');
    expect(report.summary).toBe(
      `Not conformant: 3 requirement(s) failed (STATUS-COLOUR, AUTH-TOKEN-ACCEPTED, AUTH-PASSWORD-IGNORED); ${diagnosis?.summary}.`,
    );
    // A failure on a different answer is the target's even when one of its checks got the refusal everyone gets.
    const mixed = checks.map((entry) =>
      entry.requirement === 'AUTH-PASSWORD-IGNORED'
        ? [entry, check('AUTH-PASSWORD-IGNORED', 'fail', answeredWith(VALID, { status: 403 }))]
        : [entry],
    );
    expect(resultOf(reportOf(mixed.flat()), 'AUTH-PASSWORD-IGNORED').party).toBe('target');
  });

  test('the same refusals without the header stripped are the target failing', () => {
    const checks = allPassed().map((entry) =>
      entry.requirement === 'AUTH-PASSWORD-IGNORED' ? check('AUTH-PASSWORD-IGNORED', 'fail', NO_HEADER) : entry,
    );
    const report = reportOf(checks);
    expect(report.diagnoses).toEqual([]);
    expect(resultOf(report, 'AUTH-PASSWORD-IGNORED').party).toBe('target');
  });

  test("a failure is the environment's only when every failed check got that refusal, code and body alike", () => {
    const strippedRun = (passwordChecks: RecordedCheck[]): Report =>
      reportOf([
        check('AUTH-TOKEN-ACCEPTED', 'fail', stripped('valid /api/ticket/status/1?')),
        check('AUTH-MISSING-HEADER-REFUSED', 'pass', stripped('no-header /api/ticket/status/1?')),
        check('AUTH-WRONG-TOKEN-REFUSED', 'pass', WRONG_TOKEN),
        ...passwordChecks,
      ]);
    const refusal = stripped('password-empty /api/ticket/status/1?');
    const party = (passwordChecks: RecordedCheck[]) => resultOf(strippedRun(passwordChecks), 'AUTH-PASSWORD-IGNORED').party;
    // Checks that passed on another answer do not matter.
    expect(party([check('AUTH-PASSWORD-IGNORED', 'pass', VALID), check('AUTH-PASSWORD-IGNORED', 'fail', refusal)])).toBe('environment');
    // The same code with other words, or the same words with another code, is another answer.
    expect(party([check('AUTH-PASSWORD-IGNORED', 'fail', answeredWith(refusal, { body: WRONG_TOKEN.response.bodyText }))])).toBe('target');
    expect(party([check('AUTH-PASSWORD-IGNORED', 'fail', answeredWith(refusal, { status: 403 }))])).toBe('target');
    // A failure recorded without an answer is not explained by one.
    expect(party([check('AUTH-PASSWORD-IGNORED', 'fail')])).toBe('target');
    expect(strippedRun([]).diagnoses[0]?.id).toBe('authorization-header-stripped');
  });

  test("a failure recorded without an answer is the target's when nothing is diagnosed", () => {
    const report = reportOf(allPassed().map((entry) => (entry.requirement === 'STATUS-COLOUR' ? check('STATUS-COLOUR', 'fail') : entry)));
    expect(report.diagnoses).toEqual([]);
    expect(resultOf(report, 'STATUS-COLOUR').party).toBe('target');
  });

  test('the stripped header is found on the status the run was told to ask for', () => {
    const atSeven = (exchange: Exchange): Exchange => ({
      request: { ...exchange.request, url: exchange.request.url.replace(/\/1$/, '/7'), path: '/api/ticket/status/7' },
      response: exchange.response,
    });
    const report = reportOf(
      [
        check('AUTH-TOKEN-ACCEPTED', 'fail', atSeven(stripped('valid /api/ticket/status/1?'))),
        check('AUTH-MISSING-HEADER-REFUSED', 'pass', atSeven(stripped('no-header /api/ticket/status/1?'))),
        check('AUTH-WRONG-TOKEN-REFUSED', 'pass', atSeven(WRONG_TOKEN)),
      ],
      { options: { statusId: 7, strict: false, timeoutMs: 1000, maxRequests: 40, repeat: 1 } },
    );
    expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['authorization-header-stripped']);
    expect(resultOf(report, 'AUTH-TOKEN-ACCEPTED').party).toBe('environment');
  });

  test('a status handed out without credentials is the target failing, not the environment', () => {
    const handedOut = answeredWith(NO_HEADER, { status: 200, body: VALID.response.bodyText });
    const report = reportOf(
      allPassed().map((entry) =>
        entry.requirement === 'AUTH-MISSING-HEADER-REFUSED' ? check(entry.requirement, 'fail', handedOut) : entry,
      ),
    );
    expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['authentication-not-enforced']);
    expect(resultOf(report, 'AUTH-MISSING-HEADER-REFUSED').party).toBe('target');
    expect(report).toMatchObject({ verdict: 'not-conformant', exitCode: 1 });
  });

  test("an error is the party's its check names, else the suite's; the summary gives its message and code", () => {
    const checks = allPassed().map((entry) =>
      entry.requirement === 'STATUS-COLOUR' ? errorCheck('STATUS-COLOUR', 'HARNESS_BODY_TOO_LARGE') : entry,
    );
    const report = reportOf(checks);
    expect(resultOf(report, 'STATUS-COLOUR')).toMatchObject({ verdict: 'error', party: 'target' });
    expect(report).toMatchObject({
      verdict: 'inconclusive',
      exitCode: 2,
      summary: 'No verdict: harness_body_too_large happened (HARNESS_BODY_TOO_LARGE).',
    });
    const bare = allPassed().map((entry) => (entry.requirement === 'STATUS-ID' ? check('STATUS-ID', 'error') : entry));
    expect(resultOf(reportOf(bare), 'STATUS-ID').party).toBe('suite');
    expect(reportOf(bare).summary).toBe('No verdict: no MUST requirement could be judged.');
  });

  test('a run error gives the reason, and the failures found by then are named', () => {
    const deadline: RunError = {
      code: 'HARNESS_DEADLINE',
      message: 'the run reached its deadline of 30 s',
      hint: 'h',
      party: 'environment',
    };
    const report = reportOf(colourMissing(), { errors: [deadline] });
    expect(report).toMatchObject({
      verdict: 'inconclusive',
      exitCode: 2,
      summary: 'No verdict: the run reached its deadline of 30 s. 1 requirement(s) had failed by then (STATUS-COLOUR).',
    });
    expect(reportOf(allPassed(), { errors: [deadline] }).summary).toBe('No verdict: the run reached its deadline of 30 s.');
    const two = colourMissing().map((entry) => (entry.requirement === 'STATUS-ID' ? check('STATUS-ID', 'fail', COLOUR_MISSING) : entry));
    expect(reportOf(two, { errors: [deadline] }).summary).toBe(
      'No verdict: the run reached its deadline of 30 s. 2 requirement(s) had failed by then (STATUS-ID, STATUS-COLOUR).',
    );
  });

  test('an error met around the judging is an input of the build, and the verdict is settled with it', () => {
    expect(reportOf(allPassed()).verdict).toBe('conformant');
    const leak: RunError = { code: 'HARNESS_SECRET_LEAK', message: 'report.json would carry the token', hint: 'h', party: 'suite' };
    const report = reportOf(allPassed(), {}, false, { errors: [leak] });
    expect(report).toMatchObject({ verdict: 'inconclusive', exitCode: 2, summary: 'No verdict: report.json would carry the token.' });
    expect(report.errors).toEqual([leak]);
  });

  test('a warning of the surroundings is kept as given and changes no verdict; none leaves the field out', () => {
    const warning = { code: 'TLS_NOT_VERIFIED' as const, message: 'certificates are not verified' };
    expect(reportOf(allPassed(), {}, false, { warnings: [warning] })).toMatchObject({ verdict: 'conformant', warnings: [warning] });
    expect('warnings' in reportOf(allPassed(), {}, false, { warnings: [] })).toBe(false);
  });

  test('a report off its published schema says so as a fault of the suite and gives no verdict', () => {
    const report = reportOf(allPassed(), { scenarios: [scenarioOf(allPassed(), { tlsCertificates: ['AA:BB'] })] });
    expect(report).toMatchObject({ verdict: 'inconclusive', exitCode: 2 });
    expect(report.errors).toEqual([
      expect.objectContaining({ code: 'HARNESS_INTERNAL', party: 'suite', hint: 'This is a bug in the suite; please report it' }),
    ]);
    expect(report.errors[0]?.message).toMatch(
      /^report\.json does not match schemas\/report\.schema\.json: \/target\/fingerprint\/tlsCertificateSha256\/0 must match pattern/,
    );
  });

  test('the report is frozen all the way down, and sealed as verify reads it', () => {
    const report = reportOf(colourMissing());
    const check = resultOf(report, 'STATUS-COLOUR').checks[0];
    expect([report, report.requirements, check, report.exchanges, report.target.fingerprint].every(Object.isFrozen)).toBe(true);
    expect(unfrozenPaths(report)).toEqual([]);
    expect(() => {
      (report as { verdict: string }).verdict = 'conformant';
    }).toThrow(TypeError);
    expect(report.integrity?.content).toBe(contentHash(JSON.parse(JSON.stringify(report))));
  });

  test("a report no file holds (an exporter probe's) is frozen and judged alike, but unsealed", () => {
    const written = reportOf(colourMissing());
    const unwritten = reportOf(colourMissing(), {}, false, { written: false });
    expect(Object.isFrozen(unwritten.requirements)).toBe(true);
    expect(unwritten.integrity?.content).toBeUndefined();
    expect(unwritten).toEqual({ ...written, integrity: { ...written.integrity, content: undefined } });
  });

  test('nothing judged and no cause found: no verdict, and the summary says no MUST could be judged', () => {
    const report = reportOf([]);
    expect(report).toMatchObject({ verdict: 'inconclusive', exitCode: 2, summary: 'No verdict: no MUST requirement could be judged.' });
    expect(report.totals.skip).toBe(catalog.length);
  });

  test('answers seen but nothing passed: the summary gives the likely cause', () => {
    const skipped = [
      check('AUTH-TOKEN-ACCEPTED', 'skip', stripped('valid /api/ticket/status/1?')),
      check('AUTH-MISSING-HEADER-REFUSED', 'skip', stripped('no-header /api/ticket/status/1?')),
      // A wrong token answered otherwise than no header: the header carrying the token is lost, not the token wrong.
      check('AUTH-WRONG-TOKEN-REFUSED', 'skip', WRONG_TOKEN),
    ];
    const report = reportOf(skipped);
    expect(report.diagnoses[0]?.id).toBe('authorization-header-stripped');
    expect(report.diagnoses[0]?.inconclusive).toBeUndefined();
    expect(report).toMatchObject({ verdict: 'inconclusive', summary: `No verdict: ${report.diagnoses[0]?.summary}.` });
  });
});

describe('when a front answered instead of the API', () => {
  const page = '<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><div id="app"></div></body></html>\n';
  const html = (exchange: Exchange): Exchange =>
    answeredWith(exchange, { status: 200, body: page, headers: { 'content-type': 'text/html; charset=utf-8' } });

  function frontReport(): Report {
    return reportOf([
      check('AUTH-TOKEN-ACCEPTED', 'fail', html(VALID)),
      check('ENV-JSON', 'fail', html(VALID)),
      check('ENV-JSON', 'pass', WRONG_TOKEN),
      check('ENV-NO-BOM', 'fail', html(VALID)),
      check('STATUS-COLOUR', 'fail', html(VALID)),
      check('STATUS-COLOUR', 'info', html(VALID)),
      check('STATUS-ID', 'fail', html(VALID)),
      errorCheck('STATUS-ID', 'HARNESS_BODY_TOO_LARGE'),
      check('AUTH-WRONG-TOKEN-REFUSED', 'pass', html(WRONG_TOKEN)),
      check('ENV-CONTENT-TYPE', 'fail', html(VALID)),
    ]);
  }

  test('no verdict: the API could not be judged, and the summary says why', () => {
    const report = frontReport();
    const cause = report.diagnoses.find((diagnosis) => diagnosis.inconclusive);
    expect(cause?.id).toBe('api-path-serves-html');
    expect(report).toMatchObject({
      verdict: 'inconclusive',
      exitCode: 2,
      summary: `No verdict: the API could not be judged, ${cause?.summary}.`,
    });
  });

  test('a MUST that passed beside the front does not make the run conformant', () => {
    const report = reportOf([
      check('AUTH-TOKEN-ACCEPTED', 'fail', html(VALID)),
      check('AUTH-WRONG-TOKEN-REFUSED', 'pass', html(WRONG_TOKEN)),
    ]);
    expect(resultOf(report, 'AUTH-WRONG-TOKEN-REFUSED').verdict).toBe('pass');
    expect(report.totals).toMatchObject({ pass: 1, fail: 0, error: 0 });
    expect(report).toMatchObject({ verdict: 'inconclusive', exitCode: 2 });
  });

  test('what failed or passed is set aside, each check a skip naming the cause; passes, infos and errors stay', () => {
    const report = frontReport();
    const summary = report.diagnoses[0]?.summary ?? '';
    expect(resultOf(report, 'AUTH-TOKEN-ACCEPTED')).toMatchObject({
      verdict: 'skip',
      checks: [{ verdict: 'skip', description: `AUTH-TOKEN-ACCEPTED fail: not judged, ${summary}` }],
    });
    const setAside = resultOf(report, 'AUTH-TOKEN-ACCEPTED').checks[0];
    expect(setAside && exchangeOf(report, setAside)?.response.status).toBe(200);
    expect(resultOf(report, 'ENV-JSON').checks.map((entry) => [entry.verdict, entry.description])).toEqual([
      ['skip', `ENV-JSON fail: not judged, ${summary}`],
      ['skip', `ENV-JSON pass: not judged, ${summary}`],
    ]);
    expect(resultOf(report, 'ENV-NO-BOM').verdict).toBe('skip');
    expect(resultOf(report, 'STATUS-COLOUR')).toMatchObject({ verdict: 'info' });
    expect(resultOf(report, 'STATUS-COLOUR').checks.map((entry) => entry.verdict)).toEqual(['skip', 'info']);
    expect(resultOf(report, 'STATUS-ID')).toMatchObject({ verdict: 'error', party: 'target' });
    expect(resultOf(report, 'STATUS-ID').checks.map((entry) => entry.verdict)).toEqual(['skip', 'error']);
    // A requirement that passed, or an INFO that only informs, is kept as it was.
    expect(resultOf(report, 'AUTH-WRONG-TOKEN-REFUSED')).toMatchObject({
      verdict: 'pass',
      checks: [{ verdict: 'pass', description: 'AUTH-WRONG-TOKEN-REFUSED pass' }],
    });
    expect(resultOf(report, 'ENV-CONTENT-TYPE')).toMatchObject({ verdict: 'info', checks: [{ verdict: 'fail' }] });
    expect(report.requirements.filter((result) => result.party !== undefined).map((result) => result.id)).toEqual(['STATUS-ID']);
  });
});

describe('when a front answered some requests only, and the API failed something on its own', () => {
  const blockPage = (exchange: Exchange): Exchange =>
    answeredWith(exchange, {
      status: 403,
      body: '<!DOCTYPE html>\n<html><head><title>Access denied</title></head><body>Sucuri WebSite Firewall - Access Denied</body></html>\n',
      headers: { 'content-type': 'text/html; charset=utf-8', 'x-sucuri-id': '19004' },
    });
  const FRENCH = recordedAnswer('valid /api/ticket/status/1?lang=fr', 'colour-missing');

  function mixedReport(): Report {
    const failing: Record<string, RecordedCheck[]> = {
      'STATUS-COLOUR': [check('STATUS-COLOUR', 'fail', COLOUR_MISSING)],
      'LANG-TRANSLATION-REPLACES': [notJudged('LANG-TRANSLATION-REPLACES', blockPage(FRENCH))],
      'LANG-KEEPS-TRANSLATIONS': [check('LANG-KEEPS-TRANSLATIONS', 'pass', VALID), notJudged('LANG-KEEPS-TRANSLATIONS', blockPage(FRENCH))],
      // Not judged on the front's answer, and failed on the API's own: the API's failure stands.
      'LANG-OTHER-FIELDS-UNCHANGED': [
        notJudged('LANG-OTHER-FIELDS-UNCHANGED', blockPage(FRENCH)),
        check('LANG-OTHER-FIELDS-UNCHANGED', 'fail', COLOUR_MISSING),
      ],
    };
    return reportOf(allPassed().flatMap((entry) => failing[entry.requirement] ?? [entry]));
  }

  test('not conformant for what the API failed; what a front answered is not judged, and the front is named', () => {
    const report = mixedReport();
    const front = report.diagnoses.find((diagnosis) => diagnosis.id === 'front-blocked-some-requests');
    expect(front?.inconclusive).toBeUndefined();
    expect(front?.summary).toMatch(/^Sucuri answered some requests instead of the API/);
    expect(report).toMatchObject({ verdict: 'not-conformant', exitCode: 1 });
    expect(resultOf(report, 'STATUS-COLOUR')).toMatchObject({ verdict: 'fail', party: 'target' });
    expect(resultOf(report, 'LANG-OTHER-FIELDS-UNCHANGED')).toMatchObject({ verdict: 'fail', party: 'target' });
    expect(resultOf(report, 'LANG-TRANSLATION-REPLACES')).toMatchObject({ verdict: 'error', party: 'environment' });
    expect(resultOf(report, 'LANG-KEEPS-TRANSLATIONS').checks.map((entry) => entry.verdict)).toEqual(['pass', 'error']);
    expect(report.summary).toMatch(/^Not conformant: 2 requirement\(s\) failed \(STATUS-COLOUR, LANG-OTHER-FIELDS-UNCHANGED\)/);
  });

  test('when nothing of the API failed, a MUST a front kept from being judged leaves the run without a verdict', () => {
    const report = reportOf([
      ...allPassed().filter((entry) => entry.requirement !== 'AUTH-WRONG-TOKEN-REFUSED'),
      notJudged('AUTH-WRONG-TOKEN-REFUSED', blockPage(WRONG_TOKEN)),
    ]);
    expect(report).toMatchObject({ verdict: 'inconclusive', exitCode: 2 });
    expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['front-blocked-some-requests']);
  });

  test('with another cause named first, the front is still named', () => {
    // The request without a header handed the status out: authentication not enforced, a finding about the API itself.
    const handedOut = answeredWith(NO_HEADER, { status: 200, body: VALID.response.bodyText });
    const report = reportOf([
      ...allPassed().filter((entry) => !['AUTH-MISSING-HEADER-REFUSED', 'LANG-TRANSLATION-REPLACES'].includes(entry.requirement)),
      check('AUTH-MISSING-HEADER-REFUSED', 'fail', handedOut),
      notJudged('LANG-TRANSLATION-REPLACES', blockPage(FRENCH)),
    ]);
    expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['authentication-not-enforced', 'front-blocked-some-requests']);
    expect(resultOf(report, 'AUTH-MISSING-HEADER-REFUSED')).toMatchObject({ verdict: 'fail', party: 'target' });
    expect(report).toMatchObject({ verdict: 'not-conformant', exitCode: 1 });
  });
});

describe('a baseline of known failures', () => {
  const baseline = (...knownFailures: LoadedBaseline['knownFailures']): LoadedBaseline => ({
    file: 'baseline.json',
    schemaVersion: 1,
    knownFailures,
  });
  const entry = (requirementId: string, expires = '2030-01-31', target?: string) => ({
    requirement: requirementId,
    reason: 'vendor fix due',
    owner: 'ops-team',
    expires,
    ...(target === undefined ? {} : { target }),
  });

  test('a failure known until today or later is waived: not conformant, exit 0', () => {
    const report = reportOf(colourMissing(), {}, false, {
      baseline: { baseline: baseline(entry('STATUS-COLOUR', '2030-01-31')), today: '2030-01-31' },
    });
    expect(report.baseline).toEqual({
      file: 'baseline.json',
      entries: [
        {
          requirement: 'STATUS-COLOUR',
          reason: 'vendor fix due',
          owner: 'ops-team',
          expires: '2030-01-31',
          outcome: 'known',
          note: 'known failure until 2030-01-31 (ops-team)',
        },
      ],
    });
    expect(report).toMatchObject({
      verdict: 'not-conformant',
      exitCode: 0,
      summary: 'Not conformant, but only in 1 known failure(s) of the baseline (STATUS-COLOUR): nothing new failed.',
    });
  });

  test('an expired entry counts the failure again', () => {
    const report = reportOf(colourMissing(), {}, false, {
      baseline: { baseline: baseline(entry('STATUS-COLOUR', '2030-01-30')), today: '2030-01-31' },
    });
    expect(report.baseline?.entries[0]).toMatchObject({
      outcome: 'expired',
      note: 'expired on 2030-01-30: the failure counts again; fix it or renew the entry',
    });
    expect(report).toMatchObject({ verdict: 'not-conformant', exitCode: 1 });
  });

  test('an entry that passes now is fixed; one skipped, errored or not in the report is not judged', () => {
    const checks = colourMissing().map((result) =>
      result.requirement === 'STATUS-ID' ? errorCheck('STATUS-ID', 'HARNESS_BODY_TOO_LARGE') : result,
    );
    const report = reportOf(
      checks.filter((result) => result.requirement !== 'STATUS-NAME'),
      {},
      false,
      {
        baseline: {
          baseline: baseline(entry('STATUS-ORDER'), entry('STATUS-NAME'), entry('STATUS-ID'), entry('NO-LONGER-IN-THE-CATALOG')),
          today: '2030-01-01',
        },
      },
    );
    const notJudged = 'could not be judged in this run, so it is neither known nor fixed';
    expect(report.baseline?.entries.map((result) => [result.requirement, result.outcome, result.note])).toEqual([
      ['STATUS-ORDER', 'fixed', 'fixed: remove it from the baseline'],
      ['STATUS-NAME', 'not-judged', notJudged],
      ['STATUS-ID', 'not-judged', notJudged],
      ['NO-LONGER-IN-THE-CATALOG', 'not-judged', notJudged],
    ]);
    expect(report.exitCode).toBe(1);
  });

  test('a SHOULD is a known failure only under --strict, where it fails the run', () => {
    const checks = allPassed().map((result) => (result.requirement === 'ENV-NO-BOM' ? check('ENV-NO-BOM', 'fail', VALID) : result));
    expect(reportOf(checks, {}, true).exitCode).toBe(1);
    const known = { baseline: { baseline: baseline(entry('ENV-NO-BOM')), today: '2030-01-01' } };
    const strict = reportOf(checks, {}, true, known);
    expect(strict.baseline?.entries[0]?.outcome).toBe('known');
    expect(strict.exitCode).toBe(0);
    const lenient = reportOf(checks, {}, false, known);
    expect(lenient.baseline?.entries[0]?.outcome).toBe('fixed');
  });

  test('entries for another target of a matrix do not apply; entries for this one say so', () => {
    const report = reportOf(colourMissing(), {}, false, {
      baseline: {
        baseline: baseline(entry('STATUS-COLOUR', '2030-01-31', 'staging'), entry('STATUS-ID', '2030-01-31', 'production')),
        targetName: 'production',
        today: '2030-01-01',
      },
    });
    expect(report.baseline?.entries).toEqual([
      expect.objectContaining({ requirement: 'STATUS-ID', target: 'production', outcome: 'fixed' }),
    ]);
    expect(report.exitCode).toBe(1);
    const untargeted = reportOf(colourMissing(), {}, false, {
      baseline: { baseline: baseline(entry('STATUS-COLOUR')), targetName: 'production', today: '2030-01-01' },
    });
    expect(untargeted.baseline?.entries[0]).not.toHaveProperty('target');
    expect(untargeted.exitCode).toBe(0);
  });

  test("without a date, today's decides: an entry expiring today is still known", () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-31T23:59:00.000Z') });
    try {
      const report = reportOf(colourMissing(), {}, false, {
        baseline: { baseline: baseline(entry('STATUS-COLOUR', '2030-01-31'), entry('STATUS-ORDER', '2030-01-30')) },
      });
      expect(report.baseline?.entries.map((result) => result.outcome)).toEqual(['known', 'fixed']);
      const expired = reportOf(colourMissing(), {}, false, { baseline: { baseline: baseline(entry('STATUS-COLOUR', '2030-01-30')) } });
      expect(expired.baseline?.entries[0]?.outcome).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  test('the summary names every known failure', () => {
    const checks = colourMissing().map((entry) => (entry.requirement === 'STATUS-ID' ? check('STATUS-ID', 'fail', COLOUR_MISSING) : entry));
    const report = reportOf(checks, {}, false, {
      baseline: { baseline: baseline(entry('STATUS-ID'), entry('STATUS-COLOUR')), today: '2030-01-01' },
    });
    expect(report.summary).toBe(
      'Not conformant, but only in 2 known failure(s) of the baseline (STATUS-ID, STATUS-COLOUR): nothing new failed.',
    );
  });
});

describe('--repeat: runs folded into one report', () => {
  test("a flaky requirement keeps the exchange of the run that told, under that run's key; the others keep the first run's", () => {
    const reports = [passOf(allPassed()), passOf(allPassed()), passOf(colourMissing())];
    const told = resultOf(reports[2] as DiagnosedPass, 'STATUS-COLOUR').checks[0]?.exchange ?? '';
    const kept = resultOf(reports[0] as DiagnosedPass, 'STATUS-ID').checks[0]?.exchange ?? '';
    const merged = built(reports);
    expect(resultOf(merged, 'STATUS-COLOUR').checks[0]?.exchange).toBe(`run 3: ${told}`);
    expect(merged.exchanges[`run 3: ${told}`]?.response.body).toBe(COLOUR_MISSING.response.bodyText);
    expect(resultOf(merged, 'STATUS-ID').checks[0]?.exchange).toBe(kept);
    expect(merged.exchanges[kept]?.response.body).toBe(VALID.response.bodyText);
    expect(Object.keys(merged.exchanges).sort()).toEqual([kept, `run 3: ${told}`].sort());
  });

  test('a check without an exchange stays without one, and an exchange a run does not hold is not invented', () => {
    const second = passOf(colourMissing().filter((entry) => entry.requirement !== 'SELFSERVICE-SHAPE'));
    const told = resultOf(second, 'STATUS-COLOUR').checks[0]?.exchange ?? '';
    second.exchanges = Object.fromEntries(Object.entries(second.exchanges).filter(([key]) => key !== told));
    const merged = built([passOf(allPassed().filter((entry) => entry.requirement !== 'SELFSERVICE-SHAPE')), second]);
    const notRun = resultOf(merged, 'SELFSERVICE-SHAPE').checks[0];
    expect(notRun?.description).toBe('not run');
    expect(notRun !== undefined && 'exchange' in notRun).toBe(false);
    expect(resultOf(merged, 'STATUS-COLOUR').checks[0]?.exchange).toBe(`run 2: ${told}`);
    expect(Object.keys(merged.exchanges)).not.toContain(`run 2: ${told}`);
  });

  const at = (start: string, end: string) => ({ startedAt: new Date(start), finishedAt: new Date(end) });

  test('one run is its own report; none is an error', () => {
    const only = passOf(allPassed());
    expect(mergePasses([only])).toBe(only);
    expect(() => mergePasses([])).toThrow('no pass to merge');
  });

  test('runs that agree keep their verdicts, say so, and add up their requests', () => {
    const first = passOf(allPassed(), {
      ...at('2026-11-25T10:00:00Z', '2026-11-25T10:00:02Z'),
      scenarios: [scenarioOf(allPassed(), { requestsSent: 21 })],
    });
    const second = passOf(allPassed(), {
      ...at('2026-11-25T10:00:02Z', '2026-11-25T10:00:05Z'),
      scenarios: [scenarioOf(allPassed(), { requestsSent: 21 })],
    });
    const merged = built([first, second]);
    expect(merged).toMatchObject({
      verdict: 'conformant',
      exitCode: 0,
      startedAt: '2026-11-25T10:00:00.000Z',
      finishedAt: '2026-11-25T10:00:05.000Z',
      durationMs: 5000,
      complete: true,
      requests: { sent: 42 },
      totals: { pass: catalog.length, flaky: 0 },
    });
    expect(merged.requirements.every((result) => result.repeat?.runs === 2 && result.repeat.agreed === 2)).toBe(true);
    expect(resultOf(merged, 'STATUS-COLOUR').repeat).toEqual({ runs: 2, agreed: 2, verdicts: { pass: 2 } });
  });

  test('a verdict that changed is flaky, keeps the checks of the run that failed, and fails the run', () => {
    const merged = built([passOf(allPassed()), passOf(colourMissing()), passOf(allPassed())]);
    const colour = resultOf(merged, 'STATUS-COLOUR');
    expect(colour).toMatchObject({ verdict: 'flaky', party: 'target', repeat: { runs: 3, agreed: 2, verdicts: { pass: 2, fail: 1 } } });
    expect(colour.checks.map((entry) => entry.verdict)).toEqual(['fail']);
    expect(merged).toMatchObject({
      verdict: 'not-conformant',
      exitCode: 1,
      summary: 'Not conformant: 1 requirement(s) failed (flaky STATUS-COLOUR).',
      totals: { pass: catalog.length - 1, flaky: 1 },
    });
  });

  test('the run that tells is the one that failed or warned, else the first that did not pass; its party is kept', () => {
    const withVerdicts = (...verdicts: RecordedCheck['verdict'][]): DiagnosedPass[] =>
      verdicts.map((verdict) =>
        passOf(allPassed().map((result) => (result.requirement === 'ENV-NO-BOM' ? check('ENV-NO-BOM', verdict, VALID) : result))),
      );
    const told = (reports: DiagnosedPass[]) => resultOf(built(reports), 'ENV-NO-BOM');
    expect(told(withVerdicts('pass', 'skip', 'fail'))).toMatchObject({ verdict: 'flaky', checks: [{ verdict: 'fail' }], party: 'target' });
    expect(told(withVerdicts('pass', 'info', 'skip'))).toMatchObject({ verdict: 'flaky', checks: [{ verdict: 'info' }], party: 'target' });
    const colour = (...verdicts: RecordedCheck['verdict'][]): RequirementResult =>
      resultOf(
        built(
          verdicts.map((verdict) =>
            passOf(
              allPassed().map((result) =>
                result.requirement === 'STATUS-COLOUR' ? check('STATUS-COLOUR', verdict, COLOUR_MISSING) : result,
              ),
            ),
          ),
        ),
        'STATUS-COLOUR',
      );
    expect(colour('pass', 'skip', 'fail')).toMatchObject({ verdict: 'flaky', checks: [{ verdict: 'fail' }], party: 'target' });
    const [first, second] = withVerdicts('pass', 'pass') as [DiagnosedPass, DiagnosedPass];
    second.requirements = second.requirements.map((result) =>
      result.id === 'ENV-NO-BOM'
        ? { ...result, verdict: 'error', party: 'environment', checks: [errorCheck('ENV-NO-BOM', 'HARNESS_TIMEOUT', 'environment')] }
        : result,
    );
    expect(told([first, second])).toMatchObject({ verdict: 'flaky', party: 'environment', checks: [{ verdict: 'error' }] });
  });

  test('a run cut short by the deadline or the request budget is not compared', () => {
    for (const code of ['HARNESS_DEADLINE', 'HARNESS_REQUEST_BUDGET'] as const) {
      const cut = passOf(
        allPassed().map((result) => (result.requirement === 'STATUS-COLOUR' ? errorCheck('STATUS-COLOUR', code, 'environment') : result)),
      );
      expect(cutShort(cut)).toBe(true);
      const merged = built([passOf(allPassed()), cut]);
      expect(resultOf(merged, 'STATUS-COLOUR')).toMatchObject({ verdict: 'pass', repeat: { runs: 1, agreed: 1, verdicts: { pass: 1 } } });
      expect(resultOf(merged, 'STATUS-ID').repeat).toEqual({ runs: 2, agreed: 2, verdicts: { pass: 2 } });
    }
    const timedOut = passOf(
      allPassed().map((result) => (result.requirement === 'STATUS-COLOUR' ? errorCheck('STATUS-COLOUR', 'HARNESS_TIMEOUT') : result)),
    );
    expect(cutShort(timedOut)).toBe(false);
    // A scenario that had judged some answers when the deadline came still did not judge the requirement.
    const partly = passOf(
      allPassed().flatMap((result) =>
        result.requirement === 'STATUS-COLOUR' ? [result, errorCheck('STATUS-COLOUR', 'HARNESS_DEADLINE', 'environment')] : [result],
      ),
    );
    expect(cutShort(partly)).toBe(true);
    expect(resultOf(built([passOf(colourMissing()), partly]), 'STATUS-COLOUR')).toMatchObject({
      verdict: 'fail',
      repeat: { runs: 1 },
    });
    expect(resultOf(built([passOf(allPassed()), timedOut]), 'STATUS-COLOUR').verdict).toBe('flaky');
  });

  test('when every run was cut short, the first one stands', () => {
    const cut = () =>
      passOf(
        allPassed().map((result) =>
          result.requirement === 'STATUS-COLOUR' ? errorCheck('STATUS-COLOUR', 'HARNESS_DEADLINE', 'environment') : result,
        ),
      );
    const merged = built([cut(), cut()]);
    expect(resultOf(merged, 'STATUS-COLOUR')).toMatchObject({ verdict: 'error', repeat: { runs: 1, agreed: 1, verdicts: { error: 1 } } });
  });

  test("a run's errors and stop are kept; diagnoses are listed once; the first run's missing requirements stand in", () => {
    const deadline: RunError = { code: 'HARNESS_DEADLINE', message: 'deadline reached', hint: 'h', party: 'environment' };
    const first = passOf(allPassed());
    const second = passOf(allPassed(), { complete: false, errors: [deadline] });
    expect(cutShort(second)).toBe(true);
    expect(cutShort(first)).toBe(false);
    const refusedToken = {
      id: 'token-refused',
      party: 'environment',
      confidence: 'high',
      summary: 's',
      evidence: 'e',
      advice: [],
    } as const;
    second.diagnoses = [{ ...refusedToken, advice: [] }];
    const third = passOf(allPassed());
    third.diagnoses = [{ ...refusedToken, advice: [], summary: 'later' }];
    third.requirements = third.requirements.slice(0, 3);
    const merged = built([first, second, third]);
    expect(merged).toMatchObject({ complete: false, errors: [deadline], verdict: 'inconclusive', exitCode: 2 });
    expect(merged.diagnoses.map((diagnosis) => diagnosis.summary)).toEqual(['later']);
    expect(merged.requirements).toHaveLength(catalog.length);
    expect(resultOf(merged, 'SELFSERVICE-SHAPE').repeat?.runs).toBe(3);
  });
});

describe('--profile official-client: CLIENT requirements', () => {
  const A_CLIENT = requirement('CLIENT-PHP-HTTP-200');
  const profiled = (checks: RecordedCheck[], strict = false): Report =>
    reportOf(checks, { options: { statusId: 1, strict, timeoutMs: 1000, maxRequests: 40, repeat: 1, profile: 'official-client' } }, strict);

  test('judged only with the profile: a report without it holds no CLIENT requirement and no profile section', () => {
    const report = reportOf(allPassed());
    expect(report.requirements.some((result) => result.level === 'CLIENT')).toBe(false);
    expect(report.profile).toBeUndefined();
  });

  test('a CLIENT failure warns and says the official client would fail, without changing the verdict', () => {
    const report = profiled([...allPassed(), check(A_CLIENT.id, 'fail', VALID)]);
    expect(report.requirements.find((result) => result.id === A_CLIENT.id)?.verdict).toBe('warn');
    expect(report.profile?.outcome).toBe('would-fail');
    expect(report.profile?.summary).toMatch(/^The official client would fail here \(CLIENT-PHP-HTTP-200\)/);
    expect(report.profile?.summary).toContain('src/Http/Client.php line 89');
    expect(report).toMatchObject({ verdict: 'conformant', exitCode: 0 });
  });

  test('with --strict a CLIENT failure fails the run', () => {
    const report = profiled([...allPassed(), check(A_CLIENT.id, 'fail', VALID)], true);
    expect(report).toMatchObject({ verdict: 'not-conformant', exitCode: 1 });
    expect(report.summary).toContain(A_CLIENT.id);
  });
});

describe('the levels the tests rely on', () => {
  test('the catalog has requirements at every level', () => {
    expect(idsAt('MUST').length).toBeGreaterThan(0);
    expect(idsAt('SHOULD')).toContain('ENV-NO-BOM');
    expect(idsAt('INFO')).toContain('ENV-CONTENT-TYPE');
  });
});

describe('the summary when a front kept a MUST from being judged', () => {
  const blockPage = (exchange: Exchange): Exchange =>
    answeredWith(exchange, {
      status: 403,
      body: '<!DOCTYPE html>\n<html><head><title>Access denied</title></head><body>Sucuri WebSite Firewall - Access Denied</body></html>\n',
      headers: { 'content-type': 'text/html; charset=utf-8', 'x-sucuri-id': '19004' },
    });
  const frontKeptOne = (): RecordedCheck[] => [
    ...allPassed().filter((entry) => entry.requirement !== 'AUTH-WRONG-TOKEN-REFUSED'),
    notJudged('AUTH-WRONG-TOKEN-REFUSED', blockPage(WRONG_TOKEN)),
  ];

  test('the API could not be judged, and the front that answered is named', () => {
    const report = reportOf(frontKeptOne());
    const front = report.diagnoses[0];
    expect(front?.id).toBe('front-blocked-some-requests');
    expect(report.summary).toBe(`No verdict: the API could not be judged, ${front?.summary}.`);
  });

  test('a run error stops the run first: the summary gives the error', () => {
    const budget: RunError = { code: 'HARNESS_REQUEST_BUDGET', message: 'the run used all of its 40 requests', hint: 'h', party: 'suite' };
    expect(reportOf(frontKeptOne(), { errors: [budget] }).summary).toBe('No verdict: the run used all of its 40 requests.');
  });

  test("an error of another kind beside a likely cause: the summary gives the error's message and code", () => {
    const report = reportOf([
      check('AUTH-TOKEN-ACCEPTED', 'skip', stripped('valid /api/ticket/status/1?')),
      check('AUTH-MISSING-HEADER-REFUSED', 'skip', stripped('no-header /api/ticket/status/1?')),
      // A wrong token answered otherwise than no header: the header carrying the token is lost, not the token wrong.
      check('AUTH-WRONG-TOKEN-REFUSED', 'skip', WRONG_TOKEN),
      errorCheck('STATUS-COLOUR', 'HARNESS_BODY_TOO_LARGE'),
    ]);
    expect(report.diagnoses[0]?.id).toBe('authorization-header-stripped');
    expect(report.summary).toBe('No verdict: harness_body_too_large happened (HARNESS_BODY_TOO_LARGE).');
  });

  test('a SHOULD a front kept from being judged does not stand for a MUST that errored on its own', () => {
    const report = reportOf([
      ...allPassed().filter((entry) => !['ENV-NO-BOM', 'STATUS-COLOUR'].includes(entry.requirement)),
      check('ENV-NO-BOM', 'skip', blockPage(VALID), {
        error: { code: 'HARNESS_NOT_THE_API', message: 'not judged: a front answered', hint: 'see the diagnosis', party: 'environment' },
      }),
      errorCheck('STATUS-COLOUR', 'HARNESS_BODY_TOO_LARGE'),
    ]);
    expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['front-blocked-some-requests']);
    expect(report).toMatchObject({
      verdict: 'inconclusive',
      summary: 'No verdict: harness_body_too_large happened (HARNESS_BODY_TOO_LARGE).',
    });
  });
});
