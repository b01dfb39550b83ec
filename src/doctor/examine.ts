import type { Config } from '../config/settings.js';
import type { HarnessError } from '../errors.js';
import type { ExitCode } from '../report/model/types.js';
import type { Diagnosis } from '../diagnosis/types.js';
import { handedOut, succeeded } from '../diagnosis/answers.js';
import { observationsOf, probeStack, type ProbeResult } from './probe.js';
import { diagnoseStack, unrecognisedAnswer } from '../diagnosis/rules.js';

export interface Examination {
  baseUrl: string;
  results: ProbeResult[];
  /** The Server header, as the valid-token probe got it. */
  server?: string;
  diagnoses: Diagnosis[];
  /** Why the valid-token probe got no answer, when it got none. */
  unreachable?: HarnessError;
  totals: { pass: number; fail: number; skip: number };
  /** 0 nothing wrong, 1 a problem diagnosed, 2 the target could not be reached. */
  exitCode: ExitCode;
}

function verdictOf(result: ProbeResult): 'pass' | 'fail' | 'skip' | undefined {
  if (!result.probe.expect) return undefined;
  if (!result.answer) return 'skip';
  if (result.probe.expect === 'served') return succeeded(result.answer) ? 'pass' : 'fail';
  return handedOut(result.answer) ? 'fail' : 'pass';
}

/** Probes one deployment and names what is wrong with its hosting stack, if anything. */
export async function examine(config: Config & { baseUrl: string; token: string }): Promise<Examination> {
  const results = await probeStack(config);
  const observations = observationsOf(results);
  const { valid } = observations;
  const diagnoses = diagnoseStack(observations, { baseUrl: config.baseUrl, statusId: config.statusId });
  if (valid && diagnoses.length === 0 && !succeeded(valid)) diagnoses.push(unrecognisedAnswer(valid));
  const verdicts = results.map(verdictOf);
  const count = (verdict: string): number => verdicts.filter((candidate) => candidate === verdict).length;
  return {
    baseUrl: config.baseUrl,
    results,
    server: valid?.headers.server,
    diagnoses,
    unreachable: results.find((result) => result.probe.name === 'valid')?.error,
    totals: { pass: count('pass'), fail: count('fail'), skip: count('skip') },
    exitCode: !valid ? 2 : diagnoses.length > 0 ? 1 : 0,
  };
}
