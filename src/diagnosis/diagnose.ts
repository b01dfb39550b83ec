import { sameAnswer, succeeded, type FailedAnswer, type ObservedAnswer, type StackObservations, type StackSetup } from './answers.js';
import type { CredentialVariant } from '../exchange/credentials.js';
import { exchangeKey, SELFSERVICE_PATH, STATUS_PATH } from '../exchange/exchange.js';
import { PASSWORD_VARIANTS } from '../record/plan.js';
import { FIRST_STATUS_ID, UNKNOWN_STATUS_ID } from '../record/target.js';
import { diagnoseAnswer } from './diagnose-answers.js';
import { frontAnsweredSome, frontOf } from './fronts.js';
import { diagnoseStack, headerLostOnSome } from './rules.js';
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
    selfserviceNoHeader: answerTo(exchanges, SELFSERVICE_PATH, 'no-header'),
    firstStatus: answerTo(exchanges, STATUS_PATH(FIRST_STATUS_ID), 'valid'),
    unknownStatus: answerTo(exchanges, STATUS_PATH(UNKNOWN_STATUS_ID), 'valid'),
  };
  const seen: StackObservations = Object.fromEntries(Object.entries(observations).filter(([, answer]) => answer !== undefined));
  const accepted = results.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED')?.verdict;
  return accepted === 'pass' ? { ...seen, validServed: true } : seen;
}

/** The credentials that carry the token as the user name: the valid ones, whatever the password. */
const WITH_TOKEN = new Set<string>(['valid', ...PASSWORD_VARIANTS]);

/** Every failed check of a MUST or SHOULD: whether it is a MUST's, and the answer it judged, if it judged one. */
function failedChecks(results: JudgedRequirement[], exchanges: JudgedExchanges): { must: boolean; failed?: FailedAnswer }[] {
  return results
    .filter((result) => result.verdict === 'fail' || result.verdict === 'warn')
    .flatMap((result) =>
      result.checks.filter((check) => check.verdict === 'fail').map((check) => ({ check, must: result.verdict === 'fail' })),
    )
    .map(({ check, must }) => {
      const exchange = check.exchange === undefined ? undefined : exchanges[check.exchange];
      if (!exchange) return { must };
      const { status, headers, body } = exchange.response;
      const failed = {
        requirement: check.requirement,
        credentials: exchange.request.credentials,
        // An exchange's key starts with the name of its credentials (see exchangeKey).
        withToken: WITH_TOKEN.has(check.exchange?.split(' ')[0] ?? ''),
        answer: { url: exchange.request.url, status, headers, body },
      };
      return { must, failed };
    });
}

/** A failed check's answer that a front gave instead of the API (a firewall's block page, a CDN's error). */
const isBlocked = (failed: FailedAnswer | undefined): failed is FailedAnswer =>
  failed !== undefined && frontOf(failed.answer) !== undefined;

/** Whether every failed check of a requirement judged a front's answer: then the API did not fail it, whatever else did. */
export function failedOnFrontAnswers(result: JudgedRequirement, exchanges: JudgedExchanges): boolean {
  const checks = failedChecks([result], exchanges);
  return checks.length > 0 && checks.every(({ failed }) => isBlocked(failed));
}

/** Names the most likely cause of what failed, from what was observed over HTTP alone. */
export function diagnose(results: JudgedRequirement[], exchanges: JudgedExchanges, setup: StackSetup = {}): Diagnosis[] {
  const statusId = setup.statusId ?? FIRST_STATUS_ID;
  const observations = observationsOf(results, exchanges, statusId);
  const diagnoses = diagnoseStack(observations, setup);
  const valid = exchanges[exchangeKey(STATUS_PATH(statusId), {}, 'valid')];
  // Redirects, server errors and unreadable bodies say nothing about credentials; they are named when no hosting rule matched.
  const unusualAnswer = diagnoses.length === 0 && valid ? diagnoseAnswer(results, valid) : undefined;
  if (unusualAnswer) diagnoses.push(unusualAnswer);
  if (!diagnoses.some((diagnosis) => diagnosis.inconclusive)) {
    const checks = failedChecks(results, exchanges);
    const blocked = checks.map(({ failed }) => failed).filter(isBlocked);
    // No verdict when what decides it, the MUSTs, failed only on a front's answers; a SHOULD alone does not decide it.
    const musts = checks.filter(({ must }) => must);
    const someBlocked = frontAnsweredSome(blocked, musts.length > 0 && musts.every(({ failed }) => isBlocked(failed)));
    if (someBlocked) diagnoses.push(someBlocked);
    // The token served on the configured status, and other requests with it answered as if they carried no header.
    const { noHeader, selfserviceNoHeader } = observations;
    const lost = checks
      .map(({ failed }) => failed)
      .filter(
        (failed): failed is FailedAnswer =>
          failed?.withToken === true && (sameAnswer(failed.answer, noHeader) || sameAnswer(failed.answer, selfserviceNoHeader)),
      );
    const validServed = observations.validServed ?? (observations.valid !== undefined && succeeded(observations.valid));
    if (diagnoses.length === 0 && validServed && observations.valid && lost.length > 0) {
      diagnoses.push(headerLostOnSome(observations.valid, lost));
    }
  }

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
