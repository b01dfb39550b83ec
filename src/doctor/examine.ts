import type { Config } from '../config/settings.js';
import type { RunError } from '../errors.js';
import { variantLabel } from '../exchange/credentials.js';
import { urlAt } from '../exchange/exchange.js';
import { STACK_REQUESTS, stackPlan, stackRequestKey, stackRequestPath, type StackRequest, type StackRequestName } from '../record/plan.js';
import type { RecordedFailure } from '../record/recording.js';
import { firstSlice } from '../record/target.js';
import { diagnoseUnjudged, recordPass, targetSettings } from '../pipeline/pipeline.js';
import { handedOut, observedOf, succeeded, type ObservedAnswer } from '../diagnosis/answers.js';
import { unrecognisedAnswer } from '../diagnosis/rules.js';
import type { Diagnosis } from '../diagnosis/types.js';
import type { ExitCode } from '../report/model/types.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { suiteVersion } from '../version.js';

type Verdict = 'pass' | 'fail' | 'skip';

/** What a healthy deployment answers to the first three requests; the others only inform. */
const EXPECTED: Partial<Record<StackRequestName, 'served' | 'refused'>> = { valid: 'served', noHeader: 'refused', wrongToken: 'refused' };

/** One request of the doctor's plan and what came back: its answer, or why none arrived. */
export interface ExaminedRequest {
  name: StackRequestName;
  /** The path asked for, the base URL's own path included. */
  path: string;
  /** The credentials, in words. */
  credentials: string;
  answer?: ObservedAnswer;
  failure?: RecordedFailure;
  /** Whether the answer is what a healthy deployment gives; undefined for the requests that only inform. */
  verdict?: Verdict;
}

export interface Examination {
  baseUrl: string;
  requests: ExaminedRequest[];
  /** The Server header, as the valid-token request got it. */
  server?: string;
  diagnoses: Diagnosis[];
  /** Why the valid-token request got no answer, when it got none: its own failure, or the recording's. */
  unreachable?: RunError;
  totals: Record<Verdict, number>;
  /** 0 nothing wrong, 1 a problem diagnosed, 2 the target could not be reached. */
  exitCode: ExitCode;
}

function verdictOf(name: StackRequestName, answer: ObservedAnswer | undefined): Verdict | undefined {
  const expected = EXPECTED[name];
  if (!expected) return undefined;
  if (!answer) return 'skip';
  if (expected === 'served') return succeeded(answer) ? 'pass' : 'fail';
  return handedOut(answer) ? 'fail' : 'pass';
}

/**
 * The doctor: the pipeline with its own plan (the requests the hosting-stack rules read, which a run sends too) and its
 * own view. Its answers are classified and diagnosed by the pipeline, as a run's are; the scanner redacts the token
 * from every answer as it arrives.
 */
export async function examine(config: Config & { baseUrl: string; token: string }, scanner: SecretScanner): Promise<Examination> {
  const target = { baseUrl: config.baseUrl, token: config.token, options: config };
  const startedAt = new Date();
  const settings = { ...targetSettings(target, startedAt), userAgent: `ticketing-conformance-doctor/${suiteVersion}` };
  const pass = await recordPass(target, scanner, { startedAt, settings, plan: stackPlan });
  const { exchanges, diagnoses } = diagnoseUnjudged(pass);
  // The doctor asks for one status: the first of --status-id.
  const { statusId } = firstSlice(settings);
  const recorded = pass.recording?.answers ?? {};
  // The first status is the configured one unless --status-id names another: the same request, shown once.
  const keyOf = (request: StackRequest): string => stackRequestKey(request, statusId);
  const asked = STACK_REQUESTS.filter((request, index) => STACK_REQUESTS.findIndex((other) => keyOf(other) === keyOf(request)) === index);
  const requests = asked.map((request): ExaminedRequest => {
    const key = keyOf(request);
    const exchange = exchanges[key];
    const answered = recorded[key];
    const answer = exchange && observedOf(exchange);
    return {
      name: request.name,
      path: urlAt(settings.baseUrl, stackRequestPath(request, statusId)).pathname,
      credentials: variantLabel(request.credentials),
      ...(answer ? { answer } : {}),
      ...(answered && 'failure' in answered ? { failure: answered.failure } : {}),
      verdict: verdictOf(request.name, answer),
    };
  });
  const valid = requests.find((request) => request.name === 'valid');
  // A run shows its failed checks beside its diagnoses; the doctor has nothing else to show, so it says it knows no pattern.
  if (valid?.answer && diagnoses.length === 0 && !succeeded(valid.answer)) diagnoses.push(unrecognisedAnswer(valid.answer));
  const count = (verdict: Verdict): number => requests.filter((request) => request.verdict === verdict).length;
  return {
    baseUrl: config.baseUrl,
    requests,
    server: valid?.answer?.headers.server,
    diagnoses,
    unreachable: valid?.failure ?? pass.failure,
    totals: { pass: count('pass'), fail: count('fail'), skip: count('skip') },
    exitCode: !valid?.answer ? 2 : diagnoses.length > 0 ? 1 : 0,
  };
}
