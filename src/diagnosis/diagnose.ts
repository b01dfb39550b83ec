import type { ObservedAnswer, StackObservations, StackSetup } from './answers.js';
import { diagnoseStack } from './rules.js';
import type { CredentialVariant } from '../exchange/credentials.js';
import { exchangeKey, SELFSERVICE_PATH, STATUS_PATH } from '../exchange/exchange.js';
import { FIRST_STATUS_ID, UNKNOWN_STATUS_ID } from '../record/target.js';
import { diagnoseAnswer } from './diagnose-answers.js';
import type { Diagnosis, JudgedExchanges, JudgedRequirement } from './types.js';

/** The run's answer to one request, by its key: GET of that path, without a query, with those credentials. */
function answerTo(exchanges: JudgedExchanges, path: string, credentials: CredentialVariant): ObservedAnswer | undefined {
  const exchange = exchanges[exchangeKey(path, {}, credentials)];
  if (!exchange) return undefined;
  const { status, headers, body } = exchange.response;
  return { url: exchange.request.url, status, headers, body };
}

/** The answers of the run that the hosting-stack rules read (the doctor asks the main ones itself). */
function observationsOf(results: JudgedRequirement[], exchanges: JudgedExchanges, statusId: number): StackObservations {
  const observations: StackObservations = {
    valid: answerTo(exchanges, STATUS_PATH(statusId), 'valid'),
    noHeader: answerTo(exchanges, STATUS_PATH(statusId), 'no-header'),
    wrongToken: answerTo(exchanges, STATUS_PATH(statusId), 'wrong-token'),
    invalidHeader: answerTo(exchanges, STATUS_PATH(statusId), 'bad-base64'),
    selfservice: answerTo(exchanges, SELFSERVICE_PATH, 'valid'),
    firstStatus: answerTo(exchanges, STATUS_PATH(FIRST_STATUS_ID), 'valid'),
    unknownStatus: answerTo(exchanges, STATUS_PATH(UNKNOWN_STATUS_ID), 'valid'),
  };
  const seen: StackObservations = Object.fromEntries(Object.entries(observations).filter(([, answer]) => answer !== undefined));
  const accepted = results.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED')?.verdict;
  return accepted === 'pass' ? { ...seen, validServed: true } : seen;
}

/** Names the most likely cause of what failed, from what was observed over HTTP alone. */
export function diagnose(results: JudgedRequirement[], exchanges: JudgedExchanges, setup: StackSetup = {}): Diagnosis[] {
  const statusId = setup.statusId ?? FIRST_STATUS_ID;
  const diagnoses = diagnoseStack(observationsOf(results, exchanges, statusId), setup);
  const valid = exchanges[exchangeKey(STATUS_PATH(statusId), {}, 'valid')];
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
