import type { Exchange } from '../../exchange/exchange.js';
import { servesResource, type Refusal, type Resource } from './auth.js';
import { describeResponse } from './outcome.js';

/**
 * The positive control of every refusal: a refusal proves something only if the valid token was served the same
 * resource in the same run. The reason a refusal check must be skipped, or undefined when the control holds.
 */
export function missingControl(valid: Exchange, resource: Resource, refusal?: Refusal): string | undefined {
  if (servesResource(valid, resource, refusal)) return undefined;
  return `the valid token is refused too (${describeResponse(valid).slice(0, 120)}), so a refusal proves nothing`;
}
