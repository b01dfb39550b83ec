import { nearMissVariants } from '../exchange/credentials.js';
import { prefetch } from './plan.js';
import type { Recording } from './recording.js';
import type { TargetSettings } from './settings.js';
import { Target } from './target.js';

/** Sends the whole plan to one target and keeps every answer, failures included, as a recording for the judge. */
export async function recordTarget(settings: TargetSettings, onFirstRoundSent?: () => void): Promise<Recording> {
  const target = new Target(settings, {
    connect: () => import('../http/client.js').then(({ HttpClient }) => new HttpClient(settings)),
    nearMisses: nearMissVariants(settings.token),
  });
  try {
    await prefetch(target, onFirstRoundSent);
    return await target.recorded();
  } finally {
    await target.close();
  }
}
