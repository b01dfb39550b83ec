import type { ObservedAnswer, StackObservations } from '../doctor/answers.js';
import { diagnoseStack } from '../doctor/rules.js';
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
  const transportErrors = results.flatMap((result) => result.checks).filter((check) => check.error && check.error.party === 'environment');
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
