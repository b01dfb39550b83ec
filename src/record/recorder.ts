import { nearMissVariants } from '../exchange/credentials.js';
import { prefetch, type Plan } from './plan.js';
import type { SecretScanner } from '../secrets/scanner.js';
import type { Recording } from './recording.js';
import type { HttpClientOptions } from '../http/client.js';
import type { SharedConnections } from '../http/shared-connections.js';
import type { RequestChoices } from './settings.js';
import { Target } from './target.js';

/** Everything recording a target takes: what the client takes, all of it given, and the choices the judge is handed. */
export interface TargetSettings
  extends
    RequestChoices,
    Required<Omit<HttpClientOptions, 'scanner' | 'interruption' | 'connections' | Optional>>,
    Pick<HttpClientOptions, Optional> {}

/** What a target may go without: a CA of its own, a client certificate, and a pace to keep. */
type Optional = 'ca' | 'cert' | 'key' | 'keyPassphrase' | 'pacer';

export interface RecordOptions {
  /** The requests to send: a conformance run's unless told otherwise (the doctor's few). */
  plan?: Plan;
  /** Told once the first requests are out. */
  onFirstRoundSent?: () => void;
  /** The token's scanner, when the caller already built one for the target's reports. */
  scanner?: SecretScanner;
  /** Ctrl-C or SIGTERM: no request is sent after it, and those on their way are abandoned. */
  interruption?: AbortSignal;
  /** Connections the command's targets share (a matrix's). */
  connections?: SharedConnections;
}

/** Sends the whole plan to one target and keeps every answer, failures included, as a recording for the judge. */
export async function recordTarget(
  settings: TargetSettings,
  { plan = prefetch, onFirstRoundSent, scanner, interruption, connections }: RecordOptions = {},
): Promise<Recording> {
  const target = new Target(settings, {
    connect: () =>
      import('../http/client.js').then(
        ({ HttpClient }) =>
          new HttpClient({
            ...settings,
            ...(scanner ? { scanner } : {}),
            ...(interruption ? { interruption } : {}),
            ...(connections ? { connections } : {}),
          }),
      ),
    nearMisses: nearMissVariants(settings.token),
  });
  try {
    await plan(target, onFirstRoundSent);
    return await target.recorded();
  } finally {
    await target.close();
  }
}
