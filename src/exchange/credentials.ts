import type { Exchange as RecordedExchange } from '../validators/types/recording.generated.js';

/**
 * Every way the suite presents credentials, with the curl flag that reproduces it without the secret: the names the
 * recording's schema lists (schemas/recording.schema.json), which the type is generated from.
 */
export type CredentialVariant = RecordedExchange['request']['credentials'];

export const WRONG_TOKEN = 'conformance-invalid-token-0000';
/** The Basic password sent with the token unless --password names another: the API ignores it. */
export const DEFAULT_PASSWORD = 'x';
const LONG_PASSWORD = 'p'.repeat(256);
/** Eight letters and the colon make nine bytes, so the token after them keeps the base64 the redactor looks for. */
export const OTHER_USER = 'conforma';
const APPENDED = 'x';

/** Where the token has its first ASCII letter, or -1 when it has none. */
const firstCasedLetter = (token: string): number => token.search(/[A-Za-z]/);

function caseFlipped(token: string): string {
  const at = firstCasedLetter(token);
  const char = token.charAt(at);
  const flipped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
  return `${token.slice(0, at)}${flipped}${token.slice(at + 1)}`;
}

const truncated = (token: string): string => [...token].slice(0, -1).join('');

interface VariantSpec {
  label: string;
  header(token: string, password: string): string | undefined;
  curl(password: string): string;
  /** The headers a named client sends in place of the suite's own Accept, Accept-Encoding and User-Agent. */
  clientHeaders?: Record<string, string>;
}

/** What Guzzle 7, which the official PHP client sends through, puts in User-Agent by default. */
const OFFICIAL_CLIENT_USER_AGENT = 'GuzzleHttp/7';

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
/** A header value carries bytes: a token outside ASCII goes as its UTF-8 bytes, as any HTTP client sends it. */
const asHeaderBytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
const basic = (user: string, password: string): string => `Basic ${base64(`${user}:${password}`)}`;
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
const curlUser = (password: string): string => `-u ${shellQuote(`<API_TOKEN>:${password}`)}`;

const variants: Record<CredentialVariant, VariantSpec> = {
  valid: {
    label: 'valid token, configured password',
    header: (token, password) => basic(token, password),
    curl: (password) => curlUser(password),
  },
  'password-letter': {
    label: 'valid token, password "z"',
    header: (token) => basic(token, 'z'),
    curl: () => curlUser('z'),
  },
  'password-empty': {
    label: 'valid token, empty password',
    header: (token) => basic(token, ''),
    curl: () => curlUser(''),
  },
  'password-long': {
    label: 'valid token, 256-character password',
    header: (token) => basic(token, LONG_PASSWORD),
    curl: () => `-u "<API_TOKEN>:$(printf 'p%.0s' $(seq ${LONG_PASSWORD.length}))"`,
  },
  'password-colon': {
    label: 'valid token, password containing ":"',
    header: (token) => basic(token, 'a:b:c'),
    curl: () => curlUser('a:b:c'),
  },
  'wrong-token': {
    label: 'a token that is not valid',
    header: (_token, password) => basic(WRONG_TOKEN, password),
    curl: (password) => `-u ${shellQuote(`${WRONG_TOKEN}:${password}`)}`,
  },
  'no-header': {
    label: 'no Authorization header',
    header: () => undefined,
    curl: () => '',
  },
  'bearer-scheme': {
    label: 'Bearer scheme instead of Basic',
    header: (token) => `Bearer ${asHeaderBytes(token)}`,
    curl: () => `-H ${shellQuote('Authorization: Bearer <API_TOKEN>')}`,
  },
  'bad-base64': {
    label: 'Basic with credentials that are not base64',
    header: () => 'Basic %%%not-base64%%%',
    curl: () => `-H ${shellQuote('Authorization: Basic %%%not-base64%%%')}`,
  },
  'no-colon': {
    label: 'Basic with the token alone, no ":"',
    header: (token) => `Basic ${base64(token)}`,
    curl: () => `-H "Authorization: Basic $(printf '%s' '<API_TOKEN>' | base64)"`,
  },
  'empty-credentials': {
    label: 'Basic with empty user name and password',
    header: () => basic('', ''),
    curl: () => `-u ${shellQuote(':')}`,
  },
  'token-case-flipped': {
    label: 'the token with the case of one letter flipped',
    header: (token, password) => basic(caseFlipped(token), password),
    curl: (password) =>
      `-u "$(printf '%s' ${shellQuote('<API_TOKEN>')} | perl -pe 's/([A-Za-z])/$1 ^ " "/e')"${shellQuote(`:${password}`)}`,
  },
  'token-truncated': {
    label: 'the token without its last character',
    header: (token, password) => basic(truncated(token), password),
    curl: (password) => `-u "$(printf '%s' ${shellQuote('<API_TOKEN>')} | sed 's/.$//')"${shellQuote(`:${password}`)}`,
  },
  'token-extended': {
    label: 'the token with one character appended',
    header: (token, password) => basic(`${token}${APPENDED}`, password),
    curl: (password) => `-u ${shellQuote(`<API_TOKEN>${APPENDED}:${password}`)}`,
  },
  'token-as-password': {
    label: 'the token as the password, with another user name',
    header: (token) => basic(OTHER_USER, token),
    curl: () => `-u ${shellQuote(`${OTHER_USER}:<API_TOKEN>`)}`,
  },
  // PHP's `$_SERVER['PHP_AUTH_USER'] ?: $_SERVER['PHP_AUTH_PW']` falls back to the password when the user name is empty.
  'token-as-password-empty-user': {
    label: 'the token as the password, with an empty user name',
    header: (token) => basic('', token),
    curl: () => `-u ${shellQuote(':<API_TOKEN>')}`,
  },
  // supportpal/api-client-php: src/Http/Request.php builds the header and the Content-Type (application/json, from
  // src/Resources/services.php) for every request, GET included; Guzzle adds its User-Agent and, over curl, no Accept
  // and no Accept-Encoding.
  'official-client': {
    label: 'the official PHP client\'s request: password "X", Content-Type: application/json, no Accept',
    header: (token) => basic(token, 'X'),
    curl: () => `-u ${shellQuote('<API_TOKEN>:X')} -H 'Content-Type: application/json' -H 'Accept:' -A ${OFFICIAL_CLIENT_USER_AGENT}`,
    clientHeaders: { 'content-type': 'application/json', 'user-agent': OFFICIAL_CLIENT_USER_AGENT },
  },
};

/** Every variant by name, as a recording may name them. */
export const CREDENTIAL_VARIANTS = Object.keys(variants) as CredentialVariant[];

/** The variants of the suite's own requests, which the document's checks judge: not a named client's (a --profile's). */
export const SUITE_VARIANTS = CREDENTIAL_VARIANTS.filter((variant) => variants[variant].clientHeaders === undefined);

/**
 * Tokens one slip away from the real one, which a sloppy comparison accepts (a case-insensitive collation, a prefix or a
 * truncating compare). The case probe needs a letter that has a case.
 */
export function nearMissVariants(token: string): CredentialVariant[] {
  return NEAR_MISS_VARIANTS.filter((variant) => variant !== 'token-case-flipped' || firstCasedLetter(token) >= 0);
}

export const NEAR_MISS_VARIANTS: CredentialVariant[] = ['token-case-flipped', 'token-truncated', 'token-extended'];

/** The near misses that do not contain the token itself: they give away all but one character of it, so they are secrets too. */
export function nearMissSecrets(token: string): string[] {
  return [...(firstCasedLetter(token) >= 0 ? [caseFlipped(token)] : []), truncated(token)];
}

export function authorizationHeader(variant: CredentialVariant, token: string, password: string): string | undefined {
  return variants[variant].header(token, password);
}

/** The password as a repro shows it: the default as it is, any other (which may be someone's real one) as a placeholder. */
const shownPassword = (password: string): string => (password === DEFAULT_PASSWORD ? password : '<PASSWORD>');

function curlCredentials(variant: CredentialVariant, password: string): string {
  return variants[variant].curl(shownPassword(password));
}

/**
 * The curl command that sends the request again, the token left as <API_TOKEN>. Built from the variant and the URL only,
 * never taken from a file: a recording from elsewhere could otherwise hand its reader any shell command.
 */
export function curlCommand(variant: CredentialVariant, password: string, url: string): string {
  return `${curlUpToUrl(variant, password)} ${shellQuote(url)}`;
}

/** The curl command of a variant up to its URL: the same for every request with those credentials. */
export function curlUpToUrl(variant: CredentialVariant, password: string): string {
  const credentials = curlCredentials(variant, password);
  return credentials === '' ? 'curl -sS' : `curl -sS ${credentials}`;
}

/** The headers of the client a variant stands for, sent instead of the suite's own; undefined for the suite's own requests. */
export function clientHeaders(variant: CredentialVariant): Record<string, string> | undefined {
  return variants[variant].clientHeaders;
}

export function variantLabel(variant: CredentialVariant): string {
  return variants[variant].label;
}
