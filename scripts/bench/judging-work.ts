import { createHash } from 'node:crypto';
import { workerData } from 'node:worker_threads';
import type { ScenarioResult } from '../../src/judge/scenario-result.js';

/**
 * The judging thread's work for npm run bench:judging: the spec engine of the checkout measured (workerData.engine),
 * with no stage around judging but one that keeps the scenarios in the thread, as a matrix's does, and hands back for
 * each target its number of scenarios, or when asked a digest of them to compare checkouts by.
 */
type SpecEngine = typeof import('../../src/judge/spec-engine.js');
const { judgeWithin } = (await import((workerData as { engine: string }).engine)) as SpecEngine;

judgeWithin({
  classify: (target) => target,
  finish: (finish, scenarios: ScenarioResult[][]) =>
    Promise.resolve(
      finish.map((how, index) =>
        how === 'digest' ? createHash('sha256').update(JSON.stringify(scenarios[index])).digest('hex') : (scenarios[index]?.length ?? 0),
      ),
    ),
});
