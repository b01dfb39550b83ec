import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import type { Report, RequirementResult } from '../src/report/model/types.js';
import { expectSettledRun } from './helpers/expect-run.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import type { LoopbackServer } from './helpers/loopback-server.js';
import { repoRoot, type CliRun } from './helpers/run-cli.js';
import type { IncomingMessage } from 'node:http';
import { errorReply, json, page, serveUnusualApi, statuses, withData, type UnusualApi } from './helpers/unusual-api.js';

const TOKEN = 'several-Token-3e8a61c2';
const { inProcess, cleanUpAfterAll } = fileResources();
const SEVERAL = ['--status-id', '1,2,5', '--lang', 'fr,de'];

interface Case {
  /** A server written for the case; the reference server otherwise. */
  api?: UnusualApi;
  args: string[];
}

const cases = {
  'the reference server, three statuses in two languages': { args: [...SEVERAL, '--reports', 'json,md,html,junit,ctrf,recording'] },
  'one status and one language, as before': { args: ['--status-id', '2', '--lang', 'fr'] },
  'only status 5 broken: its colour lacks the "#"': {
    api: { status: (envelope, { id }) => (id === 5 ? withData(envelope, { colour: '1f6fb2' }) : envelope) },
    args: SEVERAL,
  },
  'only German broken: lang=de is ignored': {
    api: {
      status: (envelope, { id, lang }) =>
        lang === 'de' ? withData(envelope, { name: statuses.find((status) => status.id === id)?.name }) : envelope,
    },
    args: SEVERAL,
  },
  'a status among them that does not exist': { args: ['--status-id', '1,7', '--lang', 'fr,de'] },
} satisfies Record<string, Case>;
type CaseName = keyof typeof cases;

const CLOUDFLARE_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head><body><div id="cf-wrapper"><h1>Sorry, you have been blocked</h1><div class="cf-error-details">You are unable to access example.com</div><span>Cloudflare Ray ID: <strong>8a1b2c3d4e5f6071</strong></span></div></body></html>';
const AKAMAI_PAGE =
  '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don\'t have permission to access "http&#58;&#47;&#47;help&#46;example&#46;com&#47;api&#47;ticket&#47;status&#47;5" on this server.<P>\nReference&#32;&#35;18&#46;2f3e4d5c&#46;1700000000&#46;1a2b3c4d\n</BODY>\n</HTML>\n';

/** The requests for one status, with any query and any credentials; the others go through to the API. */
const onStatus =
  (id: number, reply: UnusualApi['front']): UnusualApi['front'] =>
  (request) =>
    new URL(request.url ?? '/', 'http://several.invalid').pathname === `/api/ticket/status/${id}` ? reply?.(request) : undefined;
/** Only where the request carries Basic credentials of any kind, as a permission check after authentication answers. */
const withCredentials = (request: IncomingMessage): boolean => /^Basic /i.test(request.headers.authorization ?? '');

interface NeverServedCase {
  api: UnusualApi;
  exit: 1 | 2;
  /** Exactly the requirements that fail, and that could not be judged (error). */
  fail: string[];
  unjudged?: string[];
  diagnoses: string[];
  /** What every skip of a check for the status never served says: its real cause. */
  skipSays: RegExp;
  /** The status never served. */
  statusId?: number;
}

/** A status of --status-id that the valid token is never served, each in its own way, the others served as they should be. */
const neverServed = {
  'status 5 refused exactly like no header: the header is lost on its route': {
    api: {
      front: onStatus(5, (request) => {
        delete request.headers.authorization;
        return undefined;
      }),
    },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED'],
    diagnoses: ['authorization-header-stripped'],
    skipSays: /refused by the API with HTTP 401|no request of this run was handed status 5/,
  },
  'status 5 refused to the token with 403 in the API envelope: a permission refusal': {
    api: {
      front: onStatus(5, (request) =>
        withCredentials(request) ? errorReply(403, 'You do not have permission to view this ticket status.') : undefined,
      ),
    },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED'],
    diagnoses: [],
    skipSays: /refused by the API with HTTP 403|no request of this run was handed status 5/,
  },
  "status 5 refused to the token with a framework's 403 JSON": {
    api: {
      front: onStatus(5, (request) => (withCredentials(request) ? json(403, { message: 'This action is unauthorized.' }) : undefined)),
    },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED'],
    diagnoses: [],
    skipSays: /refused by the API with HTTP 403|no request of this run was handed status 5/,
  },
  'status 5 answered a 500 in the API envelope': {
    api: { front: onStatus(5, () => json(500, { status: 'error', message: 'Server Error', data: [] })) },
    exit: 1,
    fail: ['AUTH-TOKEN-ACCEPTED'],
    diagnoses: [],
    skipSays: /answered HTTP 500|no request of this run was handed status 5/,
  },
  'a Cloudflare block page on status 5 only': {
    api: { front: onStatus(5, page(403, CLOUDFLARE_PAGE, { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6071-AMS' })) },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED'],
    diagnoses: ['front-blocked-some-requests'],
    skipSays: /answered HTTP 403 by Cloudflare \(cdn\) in front of the API|no request of this run was handed status 5/,
  },
  'an Akamai block page on status 5 only': {
    api: { front: onStatus(5, page(403, AKAMAI_PAGE, { server: 'AkamaiGHost' })) },
    exit: 2,
    fail: [],
    unjudged: ['AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED'],
    diagnoses: ['front-blocked-some-requests'],
    skipSays: /by Akamai \(cdn\) in front of the API|no request of this run was handed status 5/,
  },
  'status 5 answered with a 404 envelope: it does not exist': {
    api: { front: onStatus(5, () => errorReply(404, 'The ticket status with given ID was not found.')) },
    exit: 2,
    fail: [],
    diagnoses: ['status-not-found'],
    skipSays:
      /status 5 does not seem to exist|answered HTTP 404 by the API, as a status that does not exist is|no request of this run was handed status 5/,
  },
  'status 1 refused to the token with 403 while status 5 is served': {
    api: {
      front: onStatus(1, (request) =>
        withCredentials(request) ? errorReply(403, 'You do not have permission to view this ticket status.') : undefined,
      ),
    },
    statusId: 1,
    exit: 1,
    // The password probes go to the first status, where the token is refused whatever the password.
    fail: ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED'],
    diagnoses: [],
    skipSays: /refused by the API with HTTP 403|no request of this run was handed status 1/,
  },
} satisfies Record<string, NeverServedCase>;
type NeverServedName = keyof typeof neverServed;
const ORDERS = ['1,5', '5,1'] as const;
const orderedName = (name: string, order: string): string => `${name} (--status-id ${order})`;

interface CaseRun {
  run: CliRun;
  /** The case's own server, whose connections the run must leave closed. */
  servers: LoopbackServer[];
}

async function runCase({ api, args }: Case): Promise<CaseRun> {
  const servers: LoopbackServer[] = [];
  let url: string;
  if (api) {
    const server = await serveUnusualApi(TOKEN, api);
    servers.push(server);
    cleanUpAfterAll(server.close);
    url = server.url;
  } else {
    const server = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(server.close);
    url = server.url;
  }
  const run = await inProcess.run(['--base-url', url, '--token', TOKEN, ...args]);
  cleanUpAfterAll(run.cleanup);
  return { run, servers };
}

/** Every case recorded at once, and judged together by the shared spec runner. */
let caseRun: (name: CaseName) => Promise<CaseRun>;
let neverServedRun: (name: NeverServedName, order: (typeof ORDERS)[number]) => Promise<CaseRun>;
beforeAll(async () => {
  const started = startAll([
    ...Object.entries(cases).map(([name, entry]) => [name, () => runCase(entry)] as const),
    ...Object.entries(neverServed).flatMap(([name, { api }]) =>
      ORDERS.map(
        (order) => [orderedName(name, order), () => runCase({ api, args: ['--status-id', order, '--reports', 'json,recording'] })] as const,
      ),
    ),
  ]);
  caseRun = started.outcome as (name: CaseName) => Promise<CaseRun>;
  neverServedRun = (name, order) => started.outcome(orderedName(name, order)) as Promise<CaseRun>;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

const reportOf = (run: CliRun): Report => {
  if (!run.report) throw new Error(`the run wrote no report.json: ${run.stderr}`);
  return run.report;
};
const resultOf = (report: Report, id: string): RequirementResult => {
  const result = report.requirements.find((candidate) => candidate.id === id);
  if (!result) throw new Error(`the report has no ${id}`);
  return result;
};
const failed = (report: Report): string[] =>
  report.requirements
    .filter((result) => result.verdict === 'fail')
    .map((result) => result.id)
    .sort();

describe('several statuses and languages in one run', () => {
  test('against the reference server, each status and each language is judged, and the run is conformant', async () => {
    const { run, servers } = await caseRun('the reference server, three statuses in two languages');
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers });
    const report = reportOf(run);
    expect(report.options).toMatchObject({ statusId: 1, statusIds: [1, 2, 5], lang: 'fr', langs: ['fr', 'de'] });
    // The 22 requests of the first status without a language, three for each other status, three languages for each.
    expect(report.requests.sent).toBe(37);
    const replaces = resultOf(report, 'LANG-TRANSLATION-REPLACES');
    expect(replaces.byStatus).toEqual([1, 2, 5].map((statusId) => ({ statusId, verdict: 'pass' })));
    expect(replaces.byLanguage).toEqual(['fr', 'de'].map((lang) => ({ lang, verdict: 'pass' })));
    // Every status and language pair was asked for, and the check of each names it.
    expect(replaces.checks.map((check) => [check.statusId, check.lang])).toEqual([
      [1, 'fr'],
      [1, 'de'],
      [2, 'fr'],
      [2, 'de'],
      [5, 'fr'],
      [5, 'de'],
    ]);
    expect(replaces.checks.find((check) => check.statusId === 5 && check.lang === 'de')?.description).toMatch(/^status 5, lang de: /);
    expect(resultOf(report, 'STATUS-NAME').byStatus?.map((entry) => entry.statusId)).toEqual([1, 2, 5]);
    // Every status is the positive control of its own refusals; the other credential probes are judged once, on the first.
    for (const id of ['AUTH-TOKEN-ACCEPTED', 'AUTH-WRONG-TOKEN-REFUSED', 'AUTH-MISSING-HEADER-REFUSED', 'HOST-AUTHORIZATION-PASSED']) {
      expect(resultOf(report, id).byStatus).toEqual([1, 2, 5].map((statusId) => ({ statusId, verdict: 'pass' })));
    }
    expect(resultOf(report, 'AUTH-NEAR-MISS-TOKEN-REFUSED')).not.toHaveProperty('byStatus');
    expect(run.stdout).toMatch(/^By status and language\n {2}status 1: \d+ pass, \d+ info\n(.*\n)* {2}lang de: \d+ pass\n/m);
    expect(await readFile(join(run.outDir, 'report.md'), 'utf8')).toContain(
      '| Requirement | status 1 | status 2 | status 5 | lang fr | lang de |',
    );
    expect(await readFile(join(run.outDir, 'report.html'), 'utf8')).toContain('<h2 id="slices">By status and language</h2>');
    const junit = await readFile(join(run.outDir, 'junit.xml'), 'utf8');
    expect(junit).toContain(
      'name="LANG-TRANSLATION-REPLACES (MUST): lang with a translation replaces name with that translation&apos;s name [status 1, 2, 5; lang fr, de]"',
    );
    const ctrf = JSON.parse(await readFile(join(run.outDir, 'ctrf.json'), 'utf8')) as { results: { tests: { name: string }[] } };
    expect(ctrf.results.tests.map((entry) => entry.name)).toContain('STATUS-NAME (MUST): name is a string [status 1, 2, 5; lang fr, de]');
  });

  test('judging the recording again gives each status and language the same verdicts, sending nothing', async () => {
    const { run } = await caseRun('the reference server, three statuses in two languages');
    const again = join(run.outDir, 'judged-again');
    const judged = await inProcess.exec(['judge', join(run.outDir, 'recording.json'), '--out', again]);
    expect(judged.code).toBe(0);
    const report = JSON.parse(await readFile(join(again, 'report.json'), 'utf8')) as Report;
    const perSlice = ({ requirements }: Report): unknown[] =>
      requirements.map(({ id, verdict, byStatus, byLanguage }) => [id, verdict, byStatus, byLanguage]);
    expect(report.options).toMatchObject({ statusIds: [1, 2, 5], langs: ['fr', 'de'] });
    expect(perSlice(report)).toEqual(perSlice(reportOf(run)));
  });

  test('one status and one language: the report has the shape it always had, with nothing per status', async () => {
    const { run, servers } = await caseRun('one status and one language, as before');
    await expectSettledRun(run, { exit: 0, token: TOKEN, servers });
    const report = reportOf(run);
    expect(report.options).toMatchObject({ statusId: 2, lang: 'fr' });
    expect(report.options).not.toHaveProperty('statusIds');
    expect(report.options).not.toHaveProperty('langs');
    for (const result of report.requirements) {
      expect(result).not.toHaveProperty('byStatus');
      expect(result).not.toHaveProperty('byLanguage');
      for (const check of result.checks) expect(check).not.toHaveProperty('statusId');
    }
    expect(run.stdout).not.toContain('By status and language');
  });

  test('only status 5 broken: exactly its requirement fails, and the report says for status 5', async () => {
    const { run, servers } = await caseRun('only status 5 broken: its colour lacks the "#"');
    await expectSettledRun(run, { exit: 1, token: TOKEN, servers });
    const report = reportOf(run);
    expect(failed(report)).toEqual(['STATUS-COLOUR']);
    const colour = resultOf(report, 'STATUS-COLOUR');
    expect(colour.byStatus).toEqual([
      { statusId: 1, verdict: 'pass' },
      { statusId: 2, verdict: 'pass' },
      { statusId: 5, verdict: 'fail' },
    ]);
    const failing = colour.checks.filter((check) => check.verdict === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((check) => check.statusId === 5)).toBe(true);
    expect(run.stdout).toMatch(/^ {2}status 5: .*1 fail.* \(STATUS-COLOUR\)$/m);
    // The line docs/several-statuses-and-languages.md gives as its example is this run's.
    const statusFive = /^ {2}(status 5: .*)$/m.exec(run.stdout)?.[1];
    expect(await readFile(join(repoRoot, 'docs', 'several-statuses-and-languages.md'), 'utf8')).toContain(`such as \`${statusFive}\``);
    // The failure names the status, and its repro asks for it.
    expect(run.stdout).toMatch(/Check: +status 5(, lang \w\w)?: data\.colour has the documented type/);
    expect(run.stdout).toMatch(/Repro: +curl .*\/api\/ticket\/status\/5/);
  });

  test('only German broken: exactly the translation requirement fails, and the report says for lang de', async () => {
    const { run, servers } = await caseRun('only German broken: lang=de is ignored');
    await expectSettledRun(run, { exit: 1, token: TOKEN, servers });
    const report = reportOf(run);
    expect(failed(report)).toEqual(['LANG-TRANSLATION-REPLACES']);
    const replaces = resultOf(report, 'LANG-TRANSLATION-REPLACES');
    expect(replaces.byLanguage).toEqual([
      { lang: 'fr', verdict: 'pass' },
      { lang: 'de', verdict: 'fail' },
    ]);
    // Every status fails in German: the worst of each status' checks.
    expect(replaces.byStatus?.map((entry) => entry.verdict)).toEqual(['fail', 'fail', 'fail']);
    expect(replaces.checks.filter((check) => check.verdict === 'fail').map((check) => [check.statusId, check.lang])).toEqual([
      [1, 'de'],
      [2, 'de'],
      [5, 'de'],
    ]);
    expect(run.stdout).toMatch(/^ {2}lang de: .*fail.*\(LANG-TRANSLATION-REPLACES\)$/m);
    expect(run.stdout).toMatch(/Check: +status 5, lang de: with lang=de, name is the "de" translation/);
    expect(run.stdout).toMatch(/Repro: +curl .*\/api\/ticket\/status\/5\?lang=de/);
  });

  test('a status among them that does not exist: no verdict, as for a single --status-id that does not exist', async () => {
    const { run, servers } = await caseRun('a status among them that does not exist');
    await expectSettledRun(run, {
      exit: 2,
      token: TOKEN,
      servers,
      line: /status 7 does not seem to exist.*\n(.*\n)*.*Next: Leave 7 out of --status-id/,
    });
    const report = reportOf(run);
    expect(report.verdict).toBe('inconclusive');
    expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(['status-not-found']);
    expect(failed(report)).toEqual([]);
  });
});

const verdictOf = (report: Report, verdict: string): string[] =>
  report.requirements
    .filter((result) => result.verdict === verdict)
    .map((result) => result.id)
    .sort();
/** What a run concludes, requirement by requirement and status by status: the same whatever the order of the list. */
const conclusions = (report: Report): unknown => ({
  verdict: report.verdict,
  exitCode: report.exitCode,
  totals: report.totals,
  diagnoses: report.diagnoses.map((diagnosis) => diagnosis.id),
  requirements: report.requirements.map(({ id, verdict, byStatus }) => [id, verdict, byStatus]),
});

describe('a status of the list that the valid token is never served', () => {
  test.each(Object.keys(neverServed) as NeverServedName[])('%s: the same verdict whatever the order of the list', async (name) => {
    const expected: NeverServedCase = neverServed[name];
    const statusId = expected.statusId ?? 5;
    const [first, second] = [await neverServedRun(name, '1,5'), await neverServedRun(name, '5,1')];
    for (const { run, servers } of [first, second]) {
      await expectSettledRun(run, { exit: expected.exit, token: TOKEN, servers });
      const report = reportOf(run);
      expect(report.options.statusIds).toEqual([1, 5]);
      expect(failed(report)).toEqual(expected.fail);
      expect(verdictOf(report, 'error')).toEqual(expected.unjudged ?? []);
      expect(report.diagnoses.map((diagnosis) => diagnosis.id)).toEqual(expected.diagnoses);
      // The status never served is named where its valid request was judged.
      const accepted = resultOf(report, 'AUTH-TOKEN-ACCEPTED').byStatus?.find((entry) => entry.statusId === statusId)?.verdict;
      expect(accepted).toBe(expected.exit === 1 ? 'fail' : expected.fail.length === 0 && expected.unjudged ? 'error' : 'skip');
      // Every skip of a check for that status names what happened to it, never a requirement that passed for it.
      const skips = report.requirements.flatMap((result) =>
        result.checks.filter((check) => check.statusId === statusId && check.verdict === 'skip'),
      );
      expect(skips.length).toBeGreaterThan(0);
      for (const skip of skips) expect(skip.description).toMatch(expected.skipSays);
      // The terminal's line for that status names what failed there.
      if (expected.exit === 1) expect(run.stdout).toMatch(new RegExp(`^ {2}status ${statusId}: .*fail.*AUTH-TOKEN-ACCEPTED`, 'm'));
    }
    expect(conclusions(reportOf(second.run))).toEqual(conclusions(reportOf(first.run)));
    expect(
      second.run.stdout
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/ in [\d.]+ m?s$/, ''),
    ).toBe(
      first.run.stdout
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/ in [\d.]+ m?s$/, ''),
    );
  });

  test('each status is asked a wrong token and no header as well: a bounded number of requests more', async () => {
    const { run } = await neverServedRun('status 5 refused to the token with 403 in the API envelope: a permission refusal', '5,1');
    const recording = JSON.parse(await readFile(join(run.outDir, 'recording.json'), 'utf8')) as {
      runs: { exchanges: { key: string }[] }[];
    };
    const asked = recording.runs[0]?.exchanges.map((exchange) => exchange.key).filter((key) => key.includes('/api/ticket/status/5'));
    expect(asked?.sort()).toEqual([
      'no-header /api/ticket/status/5?',
      'valid /api/ticket/status/5?',
      // A language the status lacks, asked of every status as before.
      'valid /api/ticket/status/5?lang=sw',
      'wrong-token /api/ticket/status/5?',
    ]);
    // Status 1 alone sends 24 requests; status 5 adds its four.
    expect(reportOf(run).requests.sent).toBe(28);
  });
});

describe('a bad list of statuses or languages', () => {
  test.each([
    [['--status-id', '1,,5'], /^CONFIG_INVALID: --status-id "1,,5" has an empty item/],
    [['--status-id', '1,5,1'], /^CONFIG_INVALID: --status-id "1,5,1" lists 1 twice/],
    [['--status-id', '1,five'], /^CONFIG_INVALID: --status-id "five" is not a whole number/],
    [['--status-id', '1,2,3,4,5,6'], /^CONFIG_INVALID: --status-id "1,2,3,4,5,6" lists 6 items, more than 5/],
    [['--lang', 'fr,de,fr'], /^CONFIG_INVALID: --lang "fr,de,fr" lists fr twice/],
  ])('%j exits 2 with one line', async (args, line) => {
    const run = await inProcess.exec(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
  });
});
