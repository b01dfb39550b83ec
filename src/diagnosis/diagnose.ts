import {
  citing,
  observedOf,
  sameAnswer,
  succeeded,
  type FailedAnswer,
  type ObservedAnswer,
  type StackObservations,
  type StackSetup,
} from './answers.js';
import { NEAR_MISS_VARIANTS, variantLabel, type CredentialVariant } from '../exchange/credentials.js';
import { exchangeKey, STATUS_PATH } from '../exchange/exchange.js';
import { PASSWORD_VARIANTS, STACK_REQUESTS, stackRequestKey, type StackRequest, type StackRequestName } from '../record/plan.js';
import { FIRST_STATUS_ID } from '../record/target.js';
import { diagnoseAnswer } from './diagnose-answers.js';
import { answerFindings } from './findings.js';
import { frontAnsweredSome, statusMissing } from './fronts.js';
import { rateLimitedUntilCap } from './rate-limit.js';
import { diagnoseStack, headerLostOnSome } from './rules.js';
import type { Diagnosis, DiagnosisId, ClassifiedExchanges, JudgedRequirement } from './types.js';
import type { RecordedCheck } from '../judge/scenario-result.js';

/** The answer to one request, by its key: GET of that path, without a query, with those credentials. */
function answerTo(exchanges: ClassifiedExchanges, path: string, credentials: CredentialVariant): ObservedAnswer | undefined {
  const key = exchangeKey(path, {}, credentials);
  const exchange = exchanges[key];
  return exchange && observedOf(exchange, key);
}

/** The token sent otherwise than as the Basic user name: served, they show the header arrives and the token is valid. */
const TOKEN_ELSEWHERE: StackRequestName[] = ['tokenAsPassword', 'bearerScheme', 'noColon'];

/** The answers that the hosting-stack rules read, a run's or the doctor's: both plans hold every request of STACK_REQUESTS. */
function observationsOf(results: JudgedRequirement[], exchanges: ClassifiedExchanges, setup: StackSetup): StackObservations {
  const statusId = setup.statusId ?? FIRST_STATUS_ID;
  const answers = new Map<StackRequestName, { request: StackRequest; answer: ObservedAnswer }>();
  for (const request of STACK_REQUESTS) {
    const exchange = exchanges[stackRequestKey(request, statusId)];
    if (exchange) answers.set(request.name, { request, answer: observedOf(exchange) });
  }
  const answerOf = (name: StackRequestName): ObservedAnswer | undefined => answers.get(name)?.answer;
  const observations: StackObservations = {
    valid: answerOf('valid'),
    noHeader: answerOf('noHeader'),
    wrongToken: answerOf('wrongToken'),
    invalidHeader: answerOf('invalidHeader'),
    frontController: answerOf('frontController'),
    frontControllerNoHeader: answerOf('frontControllerNoHeader'),
    selfservice: answerOf('selfservice'),
    selfserviceNoHeader: answerOf('selfserviceNoHeader'),
    firstStatus: answerOf('firstStatus'),
    unknownStatus: answerOf('unknownStatus'),
    tokenElsewhere: TOKEN_ELSEWHERE.flatMap((name) => {
      const seen = answers.get(name);
      return seen ? [{ form: variantLabel(seen.request.credentials), answer: seen.answer }] : [];
    }),
  };
  const nearMissesServed = NEAR_MISS_VARIANTS.flatMap((variant) => {
    const answer = answerTo(exchanges, STATUS_PATH(statusId), variant);
    return answer && succeeded(answer) ? [{ form: variantLabel(variant), answer }] : [];
  });
  const otherStatusServed = (setup.otherStatusIds ?? [])
    .map((id) => answerTo(exchanges, STATUS_PATH(id), 'valid'))
    .find((answer) => answer !== undefined && succeeded(answer));
  // Each status of --status-id is judged on its own: another status refused leaves the configured one's checks passed.
  const accepted = results.find((result) => result.id === 'AUTH-TOKEN-ACCEPTED');
  const own = accepted?.checks.filter((check) => check.statusId === undefined || check.statusId === statusId) ?? [];
  const validServed = accepted?.verdict === 'pass' || (own.length > 0 && own.every((check) => check.verdict === 'pass'));
  return {
    ...observations,
    ...(otherStatusServed ? { otherStatusServed } : {}),
    ...(validServed ? { validServed } : {}),
    ...(nearMissesServed.length > 0 ? { nearMissesServed } : {}),
  };
}

/** The credentials that carry the token as the user name: the valid ones, whatever the password. */
const WITH_TOKEN = new Set<string>(['valid', ...PASSWORD_VARIANTS]);

/** A check's answer as the stack rules read it, with the request it answered; undefined when it judged none. */
function failedAnswerOf(check: RecordedCheck, exchanges: ClassifiedExchanges): FailedAnswer | undefined {
  // Stryker disable next-line ConditionalExpression: no exchange is keyed "undefined"
  const exchange = check.exchange === undefined ? undefined : exchanges[check.exchange];
  if (!exchange) return undefined;
  return {
    requirement: check.requirement,
    credentials: exchange.request.credentials,
    // An exchange's key starts with the name of its credentials (see exchangeKey).
    // Stryker disable next-line OptionalChaining,StringLiteral: a check that names its exchange has its key
    withToken: WITH_TOKEN.has(check.exchange?.split(' ')[0] ?? ''),
    answer: observedOf(exchange, check.exchange),
  };
}

/** Every failed check of a MUST or SHOULD, with the answer it judged. */
function failedAnswers(results: JudgedRequirement[], exchanges: ClassifiedExchanges): FailedAnswer[] {
  const failing = results.filter((result) => result.verdict === 'fail' || result.verdict === 'warn');
  // Stryker disable next-line MethodExpression,ConditionalExpression: a request with the token answered like none fails the check that sent it
  const failedChecks = failing.flatMap((result) => result.checks.filter((check) => check.verdict === 'fail'));
  return failedChecks.map((check) => failedAnswerOf(check, exchanges)).filter((failed): failed is FailedAnswer => failed !== undefined);
}

/** The answers a front gave, or a redirect nobody can place, that checks could not judge, each with the requirement left unjudged. */
function frontAnswers(checks: RecordedCheck[], exchanges: ClassifiedExchanges): FailedAnswer[] {
  return checks
    .filter((check) => check.error?.code === 'HARNESS_NOT_THE_API')
    .map((check) => failedAnswerOf(check, exchanges))
    .filter((failed): failed is FailedAnswer => {
      const classified = failed?.answer.classified;
      return classified !== undefined && (classified.origin.kind === 'front' || classified.meaning.kind === 'redirect');
    });
}

/**
 * Whether a MUST failed on the API's own answers: the run then has its verdict, whatever a front answered besides. Only
 * a MUST fails (a SHOULD warns), and a check of an answer from a front outside the deployment is left unjudged.
 */
const mustFailed = (results: JudgedRequirement[]): boolean => results.some((result) => result.verdict === 'fail');

/** The causes that name the web server's own 404 page on the API paths: its routing does not reach the application. */
const NOT_ROUTED = new Set<DiagnosisId>(['rewrite-not-applied', 'front-controller-not-routed']);

const webServerPage = (answer: ObservedAnswer): boolean => {
  const { origin } = answer.classified;
  return origin.kind === 'front' && origin.front === 'web-server';
};

/** Errors of the environment that are no failure to reach the target: their own words say what happened. */
const NOT_TRANSPORT = new Set(['HARNESS_DEADLINE', 'HARNESS_INTERRUPTED', 'HARNESS_RATE_LIMITED', 'HARNESS_NOT_THE_API']);

/** The other statuses of --status-id that are answered like a status that does not exist: each leaves the run unjudged. */
function otherStatusesMissing(observations: StackObservations, exchanges: ClassifiedExchanges, setup: StackSetup): Diagnosis[] {
  return (
    setup.otherStatusIds?.flatMap((id) => {
      const valid = answerTo(exchanges, STATUS_PATH(id), 'valid');
      return (valid && !succeeded(valid) && statusMissing(observations, valid, id, true)) || [];
    }) ?? []
  );
}

/** Caps of the suite's own that a target asking it to wait makes it reach. */
const CAPS_OF_WAITING = new Set(['HARNESS_REQUEST_BUDGET', 'HARNESS_RATE_LIMITED']);

/** The rate limit behind the first check a cap stopped, when the target had asked the suite to wait. */
function rateLimitCapReached(results: JudgedRequirement[], setup: StackSetup): Diagnosis | undefined {
  const askedToWait = setup.askedToWait ?? 0;
  if (askedToWait === 0) return undefined;
  const stopped = results.filter((result) => result.checks.some((check) => check.error && CAPS_OF_WAITING.has(check.error.code)));
  const error = stopped[0]?.checks.find((check) => check.error && CAPS_OF_WAITING.has(check.error.code))?.error;
  return (
    error &&
    rateLimitedUntilCap(
      error,
      stopped.map((result) => result.id),
      askedToWait,
    )
  );
}

/** Names the most likely cause of what failed, from what was observed over HTTP alone. */
export function diagnose(results: JudgedRequirement[], exchanges: ClassifiedExchanges, setup: StackSetup = {}): Diagnosis[] {
  const statusId = setup.statusId ?? FIRST_STATUS_ID;
  const checks = results.flatMap((result) => result.checks);
  const observations = observationsOf(results, exchanges, setup);
  const validKey = exchangeKey(STATUS_PATH(statusId), {}, 'valid');
  // The hosting-stack rules are drawn from the valid request's answer, unless a rule cites others of its own.
  const diagnoses: Diagnosis[] = diagnoseStack(observations, setup).map((diagnosis) => ({ cites: [validKey], ...diagnosis }));
  const valid = exchanges[validKey];
  // Redirects, server errors and unreadable bodies say nothing about credentials; they are named when no hosting rule matched.
  const unusualAnswer = diagnoses.length === 0 && valid ? diagnoseAnswer(results, valid, exchanges) : undefined;
  if (unusualAnswer) diagnoses.push({ cites: [validKey], ...unusualAnswer });
  diagnoses.push(...answerFindings(results, exchanges, statusId));
  if (!diagnoses.some((diagnosis) => diagnosis.inconclusive)) diagnoses.push(...otherStatusesMissing(observations, exchanges, setup));
  if (!diagnoses.some((diagnosis) => diagnosis.inconclusive)) {
    // The web server's own pages on the API paths are the routing named above, not a front answering some requests.
    const routing = diagnoses.some((diagnosis) => NOT_ROUTED.has(diagnosis.id));
    const blocked = frontAnswers(checks, exchanges).filter((failed) => !(routing && webServerPage(failed.answer)));
    const someBlocked = frontAnsweredSome(blocked, mustFailed(results));
    if (someBlocked) diagnoses.push(someBlocked);
    // The token served on the configured status, and other requests with it answered as if they carried no header.
    const { noHeader, selfserviceNoHeader } = observations;
    const lost = failedAnswers(results, exchanges).filter(
      (failed) => failed.withToken && (sameAnswer(failed.answer, noHeader) || sameAnswer(failed.answer, selfserviceNoHeader)),
    );
    const validServed = observations.validServed ?? (observations.valid !== undefined && succeeded(observations.valid));
    if (diagnoses.length === 0 && validServed && observations.valid && lost.length > 0) {
      diagnoses.push({ ...citing(...lost.map((failed) => failed.answer)), ...headerLostOnSome(observations.valid, lost, noHeader) });
    }
  }

  const throttledUntilCap = rateLimitCapReached(results, setup);
  if (throttledUntilCap && !diagnoses.some((diagnosis) => diagnosis.inconclusive || diagnosis.id === 'rate-limited'))
    diagnoses.unshift(throttledUntilCap);

  const transportErrors = checks.filter((check) => check.error?.party === 'environment' && !NOT_TRANSPORT.has(check.error.code));
  const firstError = transportErrors[0]?.error;
  if (firstError) {
    diagnoses.push({
      id: 'target-not-reachable',
      party: 'environment',
      confidence: 'high',
      summary:
        firstError.code === 'HARNESS_MALFORMED_ANSWER'
          ? `the target's answer is not well-formed HTTP (${firstError.code}): no verdict can be given on what could not be read`
          : `the suite could not talk to the target (${firstError.code}): no verdict can be given on what failed to arrive`,
      evidence: firstError.message,
      advice: [firstError.hint],
    });
  }
  return diagnoses;
}
