import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import type { Diagnosis } from '../../src/diagnosis/types.js';
import type { Report } from '../../src/report/model/types.js';
import type { FileResources } from './file-resources.js';

const TOKEN = 'history-token-5b02d4';
export const BROKEN_NIGHT_CAUSE: Diagnosis = {
  id: 'server-error',
  party: 'target',
  confidence: 'medium',
  summary: `the application answered without the colour of the status${': a field the document requires is missing'.repeat(8)}`,
  evidence: 'GET /api/ticket/status/1 answered HTTP 200 without data.colour',
  advice: [],
};

export interface NightlyRuns {
  /** The folder of the runs: runs/ holds their report.json files, reference-badge.svg the badge of one run. */
  work: string;
  /** The address every staging night is recorded as having tested. */
  stagingUrl: string;
  /** The staging nights' reports, in the order they ran. */
  reports: Report[];
}

/**
 * Nightly runs for history to read: staging good, broken (STATUS-COLOUR), good again; production good twice; and a
 * report.json that is not a report.
 */
export async function nightlyRuns({ inProcess, cleanUpAfterAll, tempFolder }: FileResources): Promise<NightlyRuns> {
  const work = await tempFolder('conformance-history-');
  const good = await startReferenceServer({ token: TOKEN });
  cleanUpAfterAll(good.close);
  const broken = await startReferenceServer({ token: TOKEN, variants: ['colour-missing'] });
  cleanUpAfterAll(broken.close);
  const reports: Report[] = [];
  const runsDir = join(work, 'runs');
  // The broken night is the same address as staging: the target is named by its base URL.
  const staging = good.url;
  const plan: [string, RunningReferenceServer][] = [
    ['night-1', good],
    ['night-2', broken],
    ['night-3', good],
  ];
  const nights = async (): Promise<void> => {
    // One night after the other: history orders a target's runs by their start time.
    for (const [night, server] of plan) {
      const run = await inProcess.run(['--base-url', server.url, '--token', TOKEN]);
      if (!run.report) throw new Error(`${night}: no report`);
      // Recorded as if every night tested the one staging address.
      const report = { ...run.report, target: { ...run.report.target, baseUrl: `${staging}/` } };
      delete report.integrity;
      // The broken night names a cause longer than a line of the page, as a run's diagnosis can be.
      if (server === broken) report.diagnoses = [BROKEN_NIGHT_CAUSE];
      await mkdir(join(runsDir, night, 'staging'), { recursive: true });
      await writeFile(join(runsDir, night, 'staging', 'report.json'), JSON.stringify(report));
      reports.push(report);
      await run.cleanup();
    }
  };
  const production = async (): Promise<void> => {
    const reference = await inProcess.run(['--reports', 'json,badge']);
    await mkdir(join(runsDir, 'reference'), { recursive: true });
    await cp(join(reference.outDir, 'report.json'), join(runsDir, 'reference', 'report.json'));
    await cp(join(reference.outDir, 'badge.svg'), join(work, 'reference-badge.svg'));
    await reference.cleanup();
  };
  await Promise.all([nights(), production()]);
  await mkdir(join(runsDir, 'broken-file'));
  await writeFile(join(runsDir, 'broken-file', 'report.json'), '{ "not": "a report"');
  return { work, stagingUrl: staging, reports };
}
