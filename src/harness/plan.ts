import type { CredentialVariant } from './credentials.js';
import { FIRST_STATUS_ID, UNKNOWN_STATUS_ID, type Target } from './target.js';

export const PASSWORD_VARIANTS: CredentialVariant[] = ['password-letter', 'password-empty', 'password-long', 'password-colon'];
export const INVALID_HEADER_VARIANTS: CredentialVariant[] = ['bearer-scheme', 'bad-base64', 'no-colon', 'empty-credentials'];

/**
 * Sends every request the specs will ask for, so the critical path is three round trips:
 * everything that needs no earlier answer at once (a connection each, so two round trips),
 * then the two lang requests, which need the locales the plain status names, over those connections.
 * Settles when every answer is in; onFirstRoundSent is told once the requests of the first round have gone out.
 */
export async function prefetch(target: Target, onFirstRoundSent?: () => void): Promise<void> {
  const independent = [
    target.status(),
    target.status({ id: FIRST_STATUS_ID }),
    target.status({ id: UNKNOWN_STATUS_ID }),
    target.selfservice(),
    target.selfservice('no-header'),
    target.selfservice('wrong-token'),
    target.status({ credentials: 'wrong-token' }),
    target.status({ credentials: 'no-header' }),
    ...PASSWORD_VARIANTS.map((credentials) => target.status({ credentials })),
    ...INVALID_HEADER_VARIANTS.map((credentials) => target.status({ credentials })),
  ];
  // Requests go out in the same turn as the client is ready; one more turn and they are on their way.
  // A client that cannot start fails every request, which the recording reports; the caller need wait no longer.
  void target.ready().then(
    () => setImmediate(() => onFirstRoundSent?.()),
    () => onFirstRoundSent?.(),
  );
  const dependent = (async () => {
    // Waiting for every first answer, and one turn of the event loop for the client to take their connections back,
    // lets the last two requests reuse a kept-alive connection instead of paying for a new one.
    await Promise.allSettled(independent);
    await new Promise((resolve) => setImmediate(resolve));
    const translation = await target.translatedLocale();
    const missing = await target.missingLocale();
    await Promise.allSettled([
      ...(translation ? [target.status({ lang: String(translation.locale) })] : []),
      target.status({ lang: missing }),
    ]);
  })();
  await Promise.allSettled([...independent, dependent]);
}
