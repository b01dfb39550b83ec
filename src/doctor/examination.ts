import type { RunError } from '../errors.js';
import { variantLabel } from '../exchange/credentials.js';
import { urlAt } from '../exchange/exchange.js';
import { STACK_REQUESTS, stackRequestKey, stackRequestPath, type StackRequest, type StackRequestName } from '../record/plan.js';
import type { RecordedFailure, Recording } from '../record/recording.js';
import type { RequestChoices } from '../record/settings.js';
import { firstSlice } from '../record/target.js';
import { observedOf, statusHandedOut, succeeded, type ObservedAnswer } from '../diagnosis/answers.js';
import { unrecognisedAnswer } from '../diagnosis/rules.js';
import type { Diagnosis, ClassifiedExchanges } from '../diagnosis/types.js';
import type { ExitCode } from '../report/model/types.js';

type Verdict = 'pass' | 'fail' | 'skip';

/** What a healthy deployment answers to the first three requests; the others only inform. */
const EXPECTED: Partial<Record<StackRequestName, 'served' | 'refused'>> = { valid: 'served', noHeader: 'refused', wrongToken: 'refused' };

/** One request of the doctor's plan and what came back: its answer, or why none arrived. */
interface ExaminedRequest {
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
  return statusHandedOut(answer) ? 'fail' : 'pass';
}

/** What the doctor's pass recorded, classified and diagnosed, for its examination to be built from. */
export interface ExaminationInput {
  baseUrl: string;
  choices: Pick<RequestChoices, 'statusId' | 'lang'>;
  recording?: Recording;
  /** Why nothing could be recorded. */
  failure?: RunError;
  /** Each answer as a run's report keeps it, with its classification. */
  exchanges: ClassifiedExchanges;
  diagnoses: Diagnosis[];
}

/**
 * The doctor's build: each request of its plan with its answer and whether a healthy deployment gives it, the causes
 * the diagnosis named, and the exit code.
 */
export function buildExamination({ baseUrl, choices, recording, failure, exchanges, diagnoses: named }: ExaminationInput): Examination {
  // The doctor asks for one status: the first of --status-id.
  const { statusId } = firstSlice(choices);
  const recorded = recording?.answers ?? {};
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
      path: urlAt(baseUrl, stackRequestPath(request, statusId)).pathname,
      credentials: variantLabel(request.credentials),
      ...(answer ? { answer } : {}),
      ...(answered && 'failure' in answered ? { failure: answered.failure } : {}),
      verdict: verdictOf(request.name, answer),
    };
  });
  const valid = requests.find((request) => request.name === 'valid');
  // A run shows its failed checks beside its diagnoses; the doctor has nothing else to show, so it says it knows no pattern.
  const unrecognised = valid?.answer && named.length === 0 && !succeeded(valid.answer) ? unrecognisedAnswer(valid.answer) : undefined;
  const diagnoses = unrecognised ? [unrecognised] : named;
  const count = (verdict: Verdict): number => requests.filter((request) => request.verdict === verdict).length;
  return {
    baseUrl,
    requests,
    server: valid?.answer?.headers.server,
    diagnoses,
    unreachable: valid?.failure ?? failure,
    totals: { pass: count('pass'), fail: count('fail'), skip: count('skip') },
    exitCode: !valid?.answer ? 2 : diagnoses.length > 0 ? 1 : 0,
  };
}
