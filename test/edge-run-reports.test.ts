import { expect, test } from 'vitest';
import { startReferenceServer } from '../src/reference-server/server.js';
import { buildReport } from '../src/report/model/build.js';
import { createSecretScanner } from '../src/secrets/scanner.js';
import type { Report } from '../src/report/model/types.js';
import { formatSchemaErrors, validator } from '../src/validators/schemas.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { serveHttp, type LoopbackServer } from './helpers/loopback-server.js';
import { schemaProblems } from './helpers/schema-problems.js';
import { samplePass } from './helpers/sample-report.js';

const TOKEN = 'edge-runs-token-5e1c0b';
const { inProcess, cleanUpAfterAll } = fileResources({ reports: REPORT_KINDS });

async function server(handler: Parameters<typeof serveHttp>[0]): Promise<LoopbackServer> {
  const started = await serveHttp(handler);
  cleanUpAfterAll(started.close);
  return started;
}

/** Never answers: the run's deadline passes whatever the machine's speed. */
const stalling = (): Promise<LoopbackServer> => server(() => undefined);

const STALL = ['--deadline-ms', '1000', '--timeout-ms', '600000'];

const EDGE_RUNS: [string, () => Promise<string[]>, (report: Report) => void][] = [
  [
    'cut short by a tiny request budget',
    async () => {
      const reference = await startReferenceServer({ token: TOKEN });
      cleanUpAfterAll(reference.close);
      return ['--base-url', reference.url, '--token', TOKEN, '--max-requests', '2'];
    },
    (report) => expect(report.requests.sent).toBeLessThanOrEqual(2),
  ],
  [
    'the deadline passed on a server that never answers',
    async () => ['--base-url', (await stalling()).url, '--token', TOKEN, ...STALL],
    (report) => expect(report.errors.map((error) => error.code)).toContain('HARNESS_DEADLINE'),
  ],
  [
    'a front answered every request with an HTML 503 page',
    async () => {
      const front = await server((_request, response) => {
        response.writeHead(503, { 'content-type': 'text/html' }).end('<html><title>Service Unavailable</title><body>down</body></html>');
      });
      return ['--base-url', front.url, '--token', TOKEN];
    },
    (report) => expect(report.exitCode).toBe(2),
  ],
  [
    'nothing judged: every requirement skipped or only observed',
    async () => {
      const refusing = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
      cleanUpAfterAll(refusing.close);
      return ['--base-url', refusing.url, '--token', TOKEN, '--reports', 'json,junit,ctrf'];
    },
    (report) => expect(report.totals.pass).toBe(0),
  ],
  [
    '--repeat with a deadline on a server that never answers',
    async () => ['--base-url', (await stalling()).url, '--token', TOKEN, '--repeat', '3', ...STALL],
    (report) => expect(report.verdict).toBe('inconclusive'),
  ],
];

test.each(EDGE_RUNS)('every file of a run %s keeps to its schema', async (_name, argv, expectAbout) => {
  const run = await inProcess.run(await argv());
  cleanUpAfterAll(run.cleanup);
  if (!run.report) throw new Error(`the run wrote no report.json: ${run.stderr}`);
  expectAbout(run.report);
  expect(await schemaProblems(run)).toEqual([]);
});

test('--repeat: a later run cut short by the deadline leaves a merged report that keeps to its schema', () => {
  const first = samplePass();
  const cut = samplePass();
  cut.requirements = cut.requirements.map((result) => ({
    ...result,
    verdict: 'error',
    checks: [
      {
        requirement: result.id,
        scenario: '-',
        verdict: 'error',
        description: 'the run deadline passed',
        error: { code: 'HARNESS_DEADLINE', message: 'the run deadline passed', hint: 'Raise --deadline-ms', party: 'environment' },
      },
    ],
  }));
  const merged = buildReport({ passes: [first, cut], scanner: createSecretScanner([]) });
  const check = validator('report');
  expect(check(structuredClone(merged)), formatSchemaErrors(check.errors)).toBe(true);
  // Judged by the first run alone: its verdicts, and a repeat that says one run judged them.
  expect(merged.requirements.map((result) => [result.id, result.verdict, result.repeat?.runs])).toEqual(
    first.requirements.map((result) => [result.id, result.verdict, 1]),
  );
});
