import type { IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import { configOf } from '../src/config/load.js';
import type { Examination } from '../src/doctor/examination.js';
import { examine } from '../src/pipeline/doctor.js';
import type { Report } from '../src/report/model/types.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import { expectSettledRun } from './helpers/expect-run.js';
import { fileResources } from './helpers/file-resources.js';
import { ALL_CASES_TIMEOUT_MS, startAll } from './helpers/in-process-runs.js';
import { serveHttp, type LoopbackServer } from './helpers/loopback-server.js';
import type { ObservedAnswer } from '../src/diagnosis/answers.js';
import type { StackRequestName } from '../src/record/plan.js';
import { NGINX_SITES } from './lab/configs.js';
import { nginxLab } from './doctor/recorded.js';
import type { CliRun } from './helpers/run-cli.js';
import { SAFETY_NET_MS } from './helpers/safety-net.js';
import { errorReply, json, serveUnusualApi, type UnusualApi } from './helpers/unusual-api.js';

/**
 * The hosting rule judged on evidence: a token answered as no header fails the run only when something shows the
 * header is lost (the token served elsewhere, /index.php/api/... among them, or a wrong token answered otherwise);
 * otherwise a stripped header and a wrong token look alike and the run cannot be judged. The doctor, on the same
 * server, names the same cause.
 */

const TOKEN = 'hosting-evidence-Token-4c81d27e90ab';
const { inProcess, cleanUpAfterAll } = fileResources();

/** The vendor's one refusal, whatever was wrong with the credentials. */
const VENDOR_REFUSAL = 'Failed to authenticate because of bad credentials or an invalid authorization header.';
const HTML_401_PAGE =
  '<!DOCTYPE html><html><head><title>401 Unauthorized</title></head><body><h1>Unauthorized</h1><p>Please sign in to use the help desk.</p></body></html>';

/** Three APIs that answer every refusal alike, each in its own shape. */
const ALIKE: Record<string, UnusualApi['refuse']> = {
  'a JSON 401 envelope': () => errorReply(401, VENDOR_REFUSAL),
  'a bare 403': () => json(403, { message: 'Forbidden.' }),
  'an HTML 401 page': () => ({ status: 401, body: HTML_401_PAGE, headers: { 'content-type': 'text/html; charset=UTF-8' } }),
};

const pathOf = (request: IncomingMessage): string => new URL(request.url ?? '/', 'http://hosting.invalid').pathname;
const throughFrontController = (request: IncomingMessage): boolean => pathOf(request).startsWith('/index.php/');

/** A web server that drops the Authorization header of the requests `when` picks, as Apache's own page says who it is. */
const stripsAuthorization =
  (when: (request: IncomingMessage) => boolean): UnusualApi['front'] =>
  (request) => {
    if (when(request)) delete request.headers.authorization;
    return undefined;
  };

/** Drops an Authorization header longer than `bytes`, as a limit on the size of request headers does. */
const dropsLongAuthorization =
  (bytes: number): UnusualApi['front'] =>
  (request) => {
    if ((request.headers.authorization ?? '').length > bytes) delete request.headers.authorization;
    return undefined;
  };

interface EvidenceCase {
  name: string;
  api: UnusualApi;
  /** The token the CLI is given, when it is not the one the server holds. */
  cliToken?: string;
  exit: 0 | 1 | 2;
  /** Exactly the diagnoses the run names; the doctor names the same. */
  diagnoses: string[];
  /** What HOST-AUTHORIZATION-PASSED comes to. */
  host?: 'pass' | 'fail' | 'skip';
  /** Words the run prints, and the doctor too. */
  says?: (string | RegExp)[];
}

const WRONG_TOKEN = 'not-the-Token-of-this-server';
const BOTH_CAUSES =
  /either the web server \(or something in front of it\) strips the Authorization header .*, or the token is wrong; nothing in this run tells the two apart/;

const cases: EvidenceCase[] = [
  // A wrong token, every refusal alike: nothing tells it from a stripped header.
  ...Object.entries(ALIKE).map(([shape, refuse]): EvidenceCase => ({
    name: `a wrong --token against an API that answers every refusal with ${shape}`,
    api: { refuse, frontController: true },
    cliToken: WRONG_TOKEN,
    exit: 2,
    diagnoses: ['authorization-header-stripped'],
    host: 'skip',
    says: [BOTH_CAUSES, "copy the token again from the help desk's API settings (or create a new one)"],
  })),
  // The same APIs with the header really stripped on /api/..., and /index.php/api/... served: the token is right.
  ...Object.entries(ALIKE).map(([shape, refuse]): EvidenceCase => ({
    name: `the header stripped on /api/... while /index.php/api/... serves the token, refusals as ${shape}`,
    api: { refuse, frontController: true, front: stripsAuthorization((request) => !throughFrontController(request)) },
    exit: 1,
    diagnoses: ['authorization-header-stripped'],
    host: 'fail',
    says: [/while GET \/index\.php\/api\/ticket\/status\/1 was served with the same token: the token is right/],
  })),
  // Stripped on every path, /index.php/api/... included (Apache's "RequestHeader unset Authorization" in the site):
  // the API never sees a header, so nothing tells the rule from a wrong token.
  {
    name: 'RequestHeader unset Authorization in front of an API that answers every refusal alike',
    api: {
      frontController: true,
      front: stripsAuthorization(() => true),
    },
    exit: 2,
    diagnoses: ['authorization-header-stripped'],
    host: 'skip',
    says: [BOTH_CAUSES, '"RequestHeader unset Authorization" (mod_headers)'],
  },
  {
    name: 'RequestHeader unset Authorization in front of an API that tells a wrong token from none: still nothing to tell them by',
    api: {
      frontController: true,
      refuse: (why) => errorReply(401, why === 'bad' ? 'Invalid authentication credentials.' : VENDOR_REFUSAL),
      front: stripsAuthorization(() => true),
    },
    exit: 2,
    diagnoses: ['authorization-header-stripped'],
    host: 'skip',
    says: [BOTH_CAUSES],
  },
  {
    name: 'RequestHeader unset Authorization in a <Location /api>: /index.php/api/... is served, the header named as stripped',
    api: { frontController: true, front: stripsAuthorization((request) => pathOf(request).startsWith('/api/')) },
    exit: 1,
    diagnoses: ['authorization-header-stripped'],
    host: 'fail',
  },
  // Answers to no header and to a wrong token that differ.
  {
    name: 'a limit on header size drops the long token only: a wrong token is answered otherwise, so the header is lost',
    api: {
      refuse: (why) => (why === 'bad' ? errorReply(401, 'Invalid authentication credentials.') : errorReply(401, VENDOR_REFUSAL)),
      front: dropsLongAuthorization(54),
    },
    exit: 1,
    diagnoses: ['authorization-header-stripped'],
    host: 'fail',
    says: ['the API tells a wrong token from a missing header'],
  },
  {
    name: 'a wrong --token against an API that answers it with 403 and no header with 401',
    api: { refuse: (why) => (why === 'bad' ? errorReply(403, 'Invalid token.') : errorReply(401, 'Unauthenticated.')) },
    cliToken: WRONG_TOKEN,
    exit: 2,
    diagnoses: ['token-refused'],
    host: 'skip',
  },
  {
    name: 'an API that tells a wrong token from none, and the right token: conformant',
    api: {
      frontController: true,
      refuse: (why) => (why === 'bad' ? errorReply(401, 'Invalid authentication credentials.') : errorReply(401, VENDOR_REFUSAL)),
    },
    exit: 0,
    diagnoses: [],
    host: 'pass',
  },
  {
    name: 'every refusal alike, the right token, no front controller: conformant',
    api: { refuse: () => errorReply(401, VENDOR_REFUSAL) },
    exit: 0,
    diagnoses: [],
    host: 'pass',
  },
];

/** The token of the nginx lab, whose answers test/doctor/nginx-lab/ keeps. */
const LAB_TOKEN = 'lab-token-7d2f90b14e';

/** Which recorded answer a request gets: the one the doctor's request of the same form got. */
function recordedName(request: IncomingMessage): StackRequestName {
  const path = pathOf(request);
  const header = request.headers.authorization;
  if (path.startsWith('/index.php/')) return header === undefined ? 'frontControllerNoHeader' : 'frontController';
  if (path === '/api/selfservice/type') return header === undefined ? 'selfserviceNoHeader' : 'selfservice';
  if (path.endsWith('/2147483646')) return 'unknownStatus';
  if (header === undefined) return 'noHeader';
  if (/^Bearer /i.test(header)) return 'bearerScheme';
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  if (!/^Basic [A-Za-z0-9+/]+=*$/.test(header)) return 'invalidHeader';
  if (!decoded.includes(':')) return 'noColon';
  const [user, ...password] = decoded.split(':');
  if (user === LAB_TOKEN) return 'valid';
  return password.join(':') === LAB_TOKEN ? 'tokenAsPassword' : 'wrongToken';
}

/** The lab's recorded answers served again: each request gets what the doctor's request of its form got. */
function replay(answers: Partial<Record<StackRequestName, ObservedAnswer>>): Promise<LoopbackServer> {
  return serveHttp((request, response) => {
    const answer = answers[recordedName(request)] ?? answers.wrongToken;
    response.writeHead(answer?.status ?? 500, answer?.headers ?? {});
    response.end(answer?.body ?? '');
  });
}

interface CaseOutcome {
  run: CliRun;
  doctor: Examination;
  doctorRun: CliRun;
  server: LoopbackServer;
}

async function runCase(entry: EvidenceCase): Promise<CaseOutcome> {
  const server = await serveUnusualApi(TOKEN, entry.api);
  cleanUpAfterAll(server.close);
  const token = entry.cliToken ?? TOKEN;
  const patient = { CONFORMANCE_TIMEOUT_MS: String(SAFETY_NET_MS), CONFORMANCE_DEADLINE_MS: String(SAFETY_NET_MS) };
  const config = configOf({ baseUrl: server.url, token }, patient, '/nonexistent/.env');
  const [run, doctorRun, doctor] = await Promise.all([
    inProcess.run(['--base-url', server.url, '--token', token, '--reports', 'json']),
    inProcess.run(['doctor', '--base-url', server.url, '--token', token]),
    examine({ ...config, baseUrl: server.url, token }, createSecretScanner([token], [config.password])),
  ]);
  cleanUpAfterAll(run.cleanup);
  cleanUpAfterAll(doctorRun.cleanup);
  return { run, doctor, doctorRun, server };
}

let outcomeOf: (name: string) => Promise<CaseOutcome>;
beforeAll(async () => {
  const started = startAll(cases.map((entry) => [entry.name, () => runCase(entry)]));
  outcomeOf = started.outcome;
  await started.settled;
}, ALL_CASES_TIMEOUT_MS);

const ids = (diagnoses: { id: string }[] | undefined): string[] => (diagnoses ?? []).map((diagnosis) => diagnosis.id);

describe('a token refused like no header: exit 1 only with evidence that the header is lost', () => {
  test.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (name, entry) => {
    const { run, server } = await outcomeOf(name);
    await expectSettledRun(run, { exit: entry.exit, token: entry.cliToken ?? TOKEN, servers: [server] });
    const report = run.report as Report;
    expect(ids(report.diagnoses)).toEqual(entry.diagnoses);
    const host = report.requirements.find((result) => result.id === 'HOST-AUTHORIZATION-PASSED');
    if (entry.host) expect(host?.verdict).toBe(entry.host);
    // A run that cannot be judged fails nothing; one that is not conformant fails the hosting rule among others.
    if (entry.exit === 2) expect(report.requirements.filter((result) => result.verdict === 'fail')).toEqual([]);
    for (const words of entry.says ?? []) {
      if (typeof words === 'string') expect(run.stdout).toContain(words);
      else expect(run.stdout).toMatch(words);
    }
  });
});

describe('the doctor names the cause the run names, on the same server', () => {
  test.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (name, entry) => {
    const { run, doctor, doctorRun } = await outcomeOf(name);
    expect(ids(doctor.diagnoses)).toEqual(ids(run.report?.diagnoses));
    expect(doctorRun.code).toBe(entry.diagnoses.length > 0 ? 1 : 0);
    for (const words of entry.says ?? []) {
      if (typeof words === 'string') expect(doctorRun.stdout).toContain(words);
      else expect(doctorRun.stdout).toMatch(words);
    }
  });
});

describe("the doctor names the cause the run names on the nginx lab's recorded answers, served again", () => {
  test.each(NGINX_SITES.map((site) => [site]))('%s', async (site) => {
    const server = await replay(nginxLab(site) as Partial<Record<StackRequestName, ObservedAnswer>>);
    cleanUpAfterAll(server.close);
    const patient = { CONFORMANCE_TIMEOUT_MS: String(SAFETY_NET_MS), CONFORMANCE_DEADLINE_MS: String(SAFETY_NET_MS) };
    const config = configOf({ baseUrl: server.url, token: LAB_TOKEN }, patient, '/nonexistent/.env');
    const [run, doctor] = await Promise.all([
      inProcess.run(['--base-url', server.url, '--token', LAB_TOKEN, '--reports', 'json']),
      examine({ ...config, baseUrl: server.url, token: LAB_TOKEN }, createSecretScanner([LAB_TOKEN], [config.password])),
    ]);
    cleanUpAfterAll(run.cleanup);
    const hosting = ids(doctor.diagnoses);
    // Every site but the two conformant ones has a cause to name.
    expect(hosting.length > 0).toBe(site !== 'front-controller' && site !== 'auth-basic-api-exempt');
    // The run may name causes of the API itself beside the hosting stack's (a lang ignored by a replay): the doctor's come first.
    expect(ids(run.report?.diagnoses).slice(0, hosting.length)).toEqual(hosting);
  });
});
