/** What stands in for a secret in everything the suite keeps. */
export const REDACTED = '<redacted>';

/** Keeps the scheme of an Authorization value, so a reader sees Basic or Bearer, and nothing of the credential. */
export function redactedScheme(authorization: string): string {
  const scheme = /^([A-Za-z][\w-]*)\s/.exec(authorization)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/**
 * The last word of a name a credential travels under, as HAR sanitizers list them: Authorization and
 * Proxy-Authorization, Cookie and Set-Cookie, API keys, tokens (X-Auth-Token, X-CSRF-Token, access_token, Laravel's
 * _token), secrets, passwords, PHP's own split of the Basic credential (PHP_AUTH_USER, PHP_AUTH_PW) and session ids.
 * Matched on the name in lower case with - and . read as _, so HTTP_AUTHORIZATION and x-api-key are found as well.
 */
const CREDENTIAL_WORD =
  /(?:^|_)(?:authorization|cookies?|(?:csrf|xsrf)?token|api_?key|secret|password|passwd|php_auth_(?:user|pw|digest)|phpsessid|session_?id)$/;

/**
 * The name as CREDENTIAL_WORD reads it: camelCase split (apiKey, accessToken), lower case, - and . read as _. Most
 * names (status, message, content-type once lower case) are already so, and are returned as they are.
 */
const normalizedName = (name: string): string =>
  /[^a-z0-9_]/.test(name)
    ? name
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase()
        .replace(/[-.]/g, '_')
    : name;

/**
 * Whether a text may hold a name isCredentialName accepts, or an Authorization value: each holds one of these words in
 * some letter case, so a text without any of them needs no search for named values. Not "auth" alone: a refusal's
 * WWW-Authenticate and its words ("failed to authenticate") name no credential, and most refusals say them.
 */
export const mayNameCredential = (text: string): boolean => /authori|php[-._]?auth|cookie|token|key|secret|passw|sess/i.test(text);

/**
 * Whether a header, a JSON key, a PHP array key or a form field of this name holds a credential. Any name that holds
 * "authorization" does (X-Original-Authorization, authorization_hex): what a front forwards the header under.
 */
export function isCredentialName(name: string): boolean {
  const normalized = normalizedName(name);
  return normalized.includes('authorization') || CREDENTIAL_WORD.test(normalized);
}

/** Set-Cookie attributes: how a cookie is kept, not what it holds. */
const COOKIE_ATTRIBUTES = new Set(['path', 'domain', 'expires', 'max-age', 'samesite', 'secure', 'httponly', 'partitioned', 'priority']);

/**
 * Cookies with their values redacted and their names kept (a reader sees which session was set), in a Cookie or a
 * Set-Cookie value, several of them joined by commas included; the attributes of a Set-Cookie stay as they are.
 */
function redactedCookies(value: string): string {
  // A comma starts another cookie only when a name and = follow it: an Expires date holds a comma too.
  return value
    .split(/(;|,(?=\s*[^\s=;,]+=))/)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const [, space = '', name = '', equals = ''] = /^(\s*)([^=]*)(=?)/.exec(part) ?? [];
      if ((name === '' && equals === '') || COOKIE_ATTRIBUTES.has(name.trim().toLowerCase())) return part;
      return equals ? `${space}${name}=${REDACTED}` : `${space}${REDACTED}`;
    })
    .join('');
}

/** What is shown of a value given under a credential's name: the scheme of an Authorization, the names of cookies, or nothing. */
export function redactedCredential(name: string, value: string): string {
  if (value === '') return value;
  const normalized = normalizedName(name);
  if (normalized.includes('authorization')) return redactedScheme(value);
  return /cookies?$/.test(normalized) ? redactedCookies(value) : REDACTED;
}

/**
 * A parsed JSON value as it is kept: under a key that names a credential (authorization, PHP_AUTH_PW, api_key, in
 * any depth) every string and number is redacted by that name; every other key and string passes through redact. A
 * value with nothing to redact comes back as the same value, so that a caller tells by identity that nothing changed.
 */
export function redactedJson(value: unknown, redact: (text: string) => string, credentialName?: string): unknown {
  if (typeof value === 'string') return redact(credentialName === undefined ? value : redactedCredential(credentialName, value));
  if (typeof value === 'number' && credentialName !== undefined) return REDACTED;
  if (Array.isArray(value)) {
    const items = value.map((item) => redactedJson(item, redact, credentialName));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const kept = entries.map(([key, item]) => [
      redact(key),
      redactedJson(item, redact, credentialName ?? (isCredentialName(key) ? key : undefined)),
    ]);
    return kept.every(([key, item], index) => key === entries[index]?.[0] && item === entries[index]?.[1])
      ? value
      : Object.fromEntries(kept);
  }
  return value;
}
