import type { Requirement } from '../../requirements/types.js';
import { outcomeOf, type Outcome } from '../model/outcomes.js';
import type { MatrixTarget } from './types.js';

/**
 * What one requirement is to one target's exit code, by the rule every view counts by: its verdict under the target's
 * --strict and baseline. A matrix runs each target once, so no verdict is flaky and no check is needed to tell.
 */
export function targetOutcome(target: MatrixTarget, requirement: Pick<Requirement, 'id' | 'level'>): Outcome | undefined {
  const verdict = target.verdicts[requirement.id];
  if (verdict === undefined) return undefined;
  return outcomeOf({ verdict, level: requirement.level, checks: [] }, target.strict, target.waived.includes(requirement.id));
}
