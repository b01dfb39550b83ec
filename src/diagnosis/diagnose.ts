import type { ObservedAnswer, StackObservations, StackSetup } from './answers.js';
import { diagnoseStack } from './rules.js';
import { variantLabel, type CredentialVariant } from '../exchange/credentials.js';
import { FIRST_STATUS_ID, UNKNOWN_STATUS_ID } from '../record/target.js';
import { diagnoseAnswer } from './diagnose-answers.js';
import type { Diagnosis, JudgedRequirement } from './types.js';

/** The run's answer to one request, found on any check that recorded it: GET of that path, without a query, with those credentials. */
function answerTo(results: JudgedRequirement[], path: string, credentials: CredentialVariant): ObservedAnswer | undefined {
  const label = variantLabel(credentials);
  for (const check of results.flatMap((result) => result.checks)) {
    if (!check.request || !check.response || check.request.credentials !== label) continue;
    const url = new URL(check.request.url);
    if (url.search === '' && url.pathname.endsWith(path)) {
      return { url: check.request.url, status: check.response.status, headers: check.response.headers, body: check.response.body };
    }
  }
  return undefined;
}

/** The answers of the run that the hosting-stack rules read (the doctor asks the main ones itself). */
function observationsOf(results: JudgedRequirement[], statusId: number): StackObservations {
  const status = (id: number): string => `/api/ticket/status/${id}`;
  const observations: StackObservations = {
    valid: answerTo(results, status(statusId), 'valid'),
    noHeader: answerTo(results, status(statusId), 'no-header'),
    wrongToken: answerTo(results, status(statusId), 'wrong-token'),
    invalidHeader: answerTo(results, status(statusId), 'bad-base64'),
    selfservice: answerTo(results, '/api/selfservice/type', 'valid'),
    firstStatus: answerTo(results, status(FIRST_STATUS_ID), 'valid'),
    unknownStatus: answerTo(results, status(UNKNOWN_STATUS_ID), 'valid'),
  };
  const seen: StackObservations = Object.fromEntries(Object.entries(observations).filter(([, answer]) => answer !== undefined));
  const accepted = results.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED')?.verdict;
  return accepted === 'pass' ? { ...seen, validServed: true } : seen;
}

/** Names the most likely cause of what failed, from what was observed over HTTP alone. */
export function diagnose(results: JudgedRequirement[], setup: StackSetup = {}): Diagnosis[] {
  const diagnoses = diagnoseStack(observationsOf(results, setup.statusId ?? FIRST_STATUS_ID), setup);
  const valid = results.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED')?.checks.find((check) => check.response);
  // Redirects, server errors and unreadable bodies say nothing about credentials; they are named when no hosting rule matched.
  const unusualAnswer = diagnoses.length === 0 && valid ? diagnoseAnswer(results, valid) : undefined;
  if (unusualAnswer) diagnoses.push(unusualAnswer);

  // The deadline and rate limits are not a failure to reach the target; their own errors say what happened.
  const transportErrors = results
    .flatMap((result) => result.checks)
    .filter(
      (check) =>
        check.error?.party === 'environment' && check.error.code !== 'HARNESS_DEADLINE' && check.error.code !== 'HARNESS_RATE_LIMITED',
    );
  const firstError = transportErrors[0]?.error;
  if (firstError) {
    diagnoses.push({
      id: 'target-not-reachable',
      party: 'environment',
      confidence: 'high',
      summary: `the suite could not talk to the target (${firstError.code}): no verdict can be given on what failed to arrive`,
      evidence: firstError.message,
      advice: [firstError.hint],
    });
  }
  return diagnoses;
}
