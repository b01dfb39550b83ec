import type { ObservedAnswer, StackObservations } from '../doctor/answers.js';
import { diagnoseStack } from '../doctor/rules.js';
import { diagnoseAnswer } from './diagnose-answers.js';
import type { Diagnosis, RequirementResult } from './types.js';

function answerOf(results: RequirementResult[], id: string): ObservedAnswer | undefined {
  const check = results.find((candidate) => candidate.id === id)?.checks.find((candidate) => candidate.response && candidate.request);
  if (!check?.response || !check.request) return undefined;
  return { url: check.request.url, status: check.response.status, headers: check.response.headers, body: check.response.body };
}

/** The answers of the run that the hosting-stack rules read (the doctor asks the same questions itself). */
function observationsOf(results: RequirementResult[]): StackObservations {
  return {
    valid: answerOf(results, 'AUTH-TOKEN-ACCEPTED'),
    noHeader: answerOf(results, 'AUTH-MISSING-HEADER-REFUSED'),
    wrongToken: answerOf(results, 'AUTH-WRONG-TOKEN-REFUSED'),
  };
}

/** Names the most likely cause of what failed, from what was observed over HTTP alone. */
export function diagnose(results: RequirementResult[]): Diagnosis[] {
  const diagnoses = diagnoseStack(observationsOf(results));
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
