export const REDACTED = '<redacted>';

/**
 * An Authorization (or Proxy-Authorization) value that carries a credential: a scheme, then a token-like string.
 * Placeholders such as <redacted> or <API_TOKEN>, and the deliberately malformed values the suite sends, do not match.
 */
const AUTHORIZATION_VALUE = /(authorization[\s"':=]{1,6}(?:basic|bearer|digest|token|negotiate)\s+)([A-Za-z0-9._~+/=-]{6,})/i;
const EVERY_AUTHORIZATION_VALUE = new RegExp(AUTHORIZATION_VALUE.source, 'gi');

/** Keeps the scheme of an Authorization value, so a reader sees Basic or Bearer, and nothing of the credential. */
export function redactedScheme(authorization: string): string {
  const scheme = /^([A-Za-z][\w-]*)\s/.exec(authorization)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/** Every form in which the token could show up in text the suite records or writes. */
export function secretForms(token: string): string[] {
  if (token.length === 0) return [];
  const forms = new Set<string>([token, encodeURIComponent(token)]);
  // A Basic credential starts with the token, so base64 of its leading 3-byte groups is stable whatever follows.
  const alignedBytes = Math.floor(Buffer.byteLength(token) / 3) * 3;
  if (alignedBytes >= 3) {
    forms.add(Buffer.from(token).subarray(0, alignedBytes).toString('base64'));
  }
  return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

/** Removes the token in every form, and the credential of any Authorization value, such as one a target echoes back. */
export function createRedactor(token: string): (text: string) => string {
  const forms = secretForms(token);
  return (text) =>
    forms.reduce((result, form) => result.replaceAll(form, REDACTED), text).replace(EVERY_AUTHORIZATION_VALUE, `$1${REDACTED}`);
}

/** Returns the first secret form found in the text, so the caller can refuse to write it. */
export function findSecret(text: string, token: string): string | undefined {
  return secretForms(token).find((form) => text.includes(form));
}

export interface SecretScanner {
  /** Names what secret the text holds (never the secret itself), or undefined when it holds none. */
  find(text: string): string | undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One matcher over every form of every distinct token: a single pass over the text whatever the number of tokens,
 * so a matrix of many targets is scanned once, not once per token.
 */
export function createSecretScanner(tokens: readonly string[]): SecretScanner {
  const forms = [...new Set([...new Set(tokens)].flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const matcher = forms.length === 0 ? undefined : new RegExp(forms.map(escapeRegExp).join('|'));
  return { find: (text) => (matcher?.test(text) ? 'the API token' : undefined) };
}

/** Names what secret the text would expose, without repeating it, or undefined when it is clean. */
export function findLeak(text: string, token: string): string | undefined {
  if (findSecret(text, token)) return 'the API token';
  return AUTHORIZATION_VALUE.test(text) ? 'an Authorization value' : undefined;
}
