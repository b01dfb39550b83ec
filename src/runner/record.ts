import { prefetch } from '../harness/plan.js';
import type { Recording } from '../harness/recording.js';
import type { TargetSettings } from '../harness/settings.js';
import { Target } from '../harness/target.js';

/** Sends the whole prefetch to one target from the CLI process and keeps every answer for the specs. */
export async function recordTarget(settings: TargetSettings, onFirstRoundSent?: () => void): Promise<Recording> {
  const target = new Target(settings);
  try {
    await prefetch(target, onFirstRoundSent);
    return await target.recorded();
  } finally {
    await target.close();
  }
}
