import { expect } from 'vitest';
import type { FileResources } from '../helpers/file-resources.js';
import { COUNTS_LINE, failedRequirements, lastLine, runCli, type CliRun } from '../helpers/run-cli.js';
import { tokenFormsIn } from '../helpers/token-forms.js';
import type { Lab, RunningSite, SiteSetup } from './lab.js';

/** The conformance run and the doctor against one site of the lab. */
export interface Runs {
  main: CliRun;
  doctor: CliRun;
}

/** Which of the two commands run as the real binary, end to end; the others run in the test's process. */
export type RealCli = 'both' | 'doctor' | 'none';

/**
 * Serves one configuration and runs the CLI against it twice: the conformance run and the doctor, their recordings
 * judged together with the file's other runs. inspect sees the running site before it stops (its error log, more
 * requests). Neither output may show the token.
 */
export function siteRuns(lab: () => Lab | undefined, token: string, { inProcess, cleanUpAfterAll }: FileResources) {
  return async function against<T = undefined>(
    site: SiteSetup,
    realCli: RealCli = 'none',
    inspect?: (running: RunningSite) => Promise<T>,
  ): Promise<Runs & { inspected: T | undefined }> {
    const started = lab();
    if (!started) throw new Error('the lab did not start');
    const running = await started.serve(site);
    const command =
      (real: boolean) =>
      (args: string[]): Promise<CliRun> =>
        real ? runCli(args) : inProcess.run(args);
    try {
      const [main, doctor] = await Promise.all([
        command(realCli === 'both')(['--base-url', running.url, '--token', token]),
        command(realCli !== 'none')(['doctor', '--base-url', running.url, '--token', token]),
      ]);
      cleanUpAfterAll(main.cleanup);
      cleanUpAfterAll(doctor.cleanup);
      for (const run of [main, doctor]) {
        expect(tokenFormsIn(run.stdout + run.stderr, token)).toEqual([]);
        // What a front or the web server answered in the API's place is counted as not judged, after the totals.
        expect(lastLine(run)).toMatch(COUNTS_LINE);
      }
      return { main, doctor, inspected: inspect ? await inspect(running) : undefined };
    } finally {
      await running.stop();
    }
  };
}

function diagnosisIds(run: CliRun): string[] {
  return (run.report?.diagnoses ?? []).map((diagnosis) => diagnosis.id);
}

export function expectConformant({ main, doctor }: Runs): void {
  expect(failedRequirements(main.report)).toEqual([]);
  expect(main.code).toBe(0);
  expect(main.report?.diagnoses).toEqual([]);
  expect(doctor.stdout).toContain('Verdict: no problem found in the hosting stack');
  expect(lastLine(doctor)).toBe('3 passed, 0 failed, 0 skipped');
  expect(doctor.code).toBe(0);
}

/** The main run exits 1 when the API answered and broke a rule, 2 when it was never reached; the doctor exits 1 for any diagnosis. */
export function expectDiagnosed({ main, doctor }: Runs, id: string, confidence: { main: string; doctor: string }, mainExit: 1 | 2): void {
  expect(main.code).toBe(mainExit);
  expect(diagnosisIds(main)).toEqual([id]);
  expect(main.report?.diagnoses[0]?.confidence).toBe(confidence.main);
  expect(main.stdout).toContain(`Diagnosis (environment, ${confidence.main} confidence)`);
  expect(doctor.code).toBe(1);
  expect(doctor.stdout).toContain(`Diagnosis (environment, ${confidence.doctor} confidence): ${main.report?.diagnoses[0]?.summary}`);
}

/** The main run and the doctor both print the fix. */
export function expectBothSay({ main, doctor }: Runs, ...texts: (string | RegExp)[]): void {
  for (const run of [main, doctor]) {
    for (const text of texts) {
      if (typeof text === 'string') expect(run.stdout).toContain(text);
      else expect(run.stdout).toMatch(text);
    }
  }
}
