import type { Config } from '../config/settings.js';
import { classifyRecording } from '../classify/recording.js';
import type { Diagnosis, ClassifiedExchanges } from '../diagnosis/types.js';
import { buildExamination, type Examination } from '../doctor/examination.js';
import { judgedExchange, type JudgedExchange } from '../judge/scenario-result.js';
import { stackPlan } from '../record/plan.js';
import { firstSlice } from '../record/target.js';
import type { SecretScanner } from '../secrets/scanner.js';
import { suiteVersion } from '../version.js';
import { classifiedExchanges, diagnosisOf, recordPass, targetSettings, type Pass } from './pipeline.js';

/**
 * Classify and diagnose a pass that no spec judges (the doctor's plan): each answer classified as a run's pass is, and
 * the causes a run would name from the same answers.
 */
function diagnoseUnjudged({ target, recording, choices }: Pass): { exchanges: ClassifiedExchanges; diagnoses: Diagnosis[] } {
  const classified = recording ? classifyRecording(recording, [firstSlice(choices).statusId]).answers : {};
  const judged: Record<string, JudgedExchange> = {};
  for (const [key, answer] of Object.entries(recording?.answers ?? {})) {
    if ('exchange' in answer) judged[key] = judgedExchange(answer.exchange, classified[key]);
  }
  const exchanges = classifiedExchanges(judged);
  return { exchanges, diagnoses: diagnosisOf([], exchanges, target.baseUrl, choices) };
}

/**
 * The doctor: the pipeline with its own plan (the requests the hosting-stack rules read, which a run sends too) and its
 * own view. Record, classify and diagnose as a run does, then build the examination; the scanner redacts the token
 * from every answer as it arrives.
 */
export async function examine(config: Config & { baseUrl: string; token: string }, scanner: SecretScanner): Promise<Examination> {
  const target = { baseUrl: config.baseUrl, token: config.token, options: config };
  const startedAt = new Date();
  const settings = { ...targetSettings(target, startedAt), userAgent: `ticketing-conformance-doctor/${suiteVersion}` };
  const pass = await recordPass(target, scanner, { startedAt, settings, plan: stackPlan });
  return buildExamination({ ...pass, baseUrl: target.baseUrl, ...diagnoseUnjudged(pass) });
}
