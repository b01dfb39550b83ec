import { timingSafeEqual } from 'node:crypto';

export type AuthOutcome = 'ok' | 'bad-credentials' | 'malformed' | 'missing';

export interface AuthRequest {
  header: string | undefined;
  token: string;
  route: 'status' | 'selfservice';
  /** Asked through /index.php/api/..., the front controller's own path, which reaches it without a rewrite. */
  frontController: boolean;
}

export interface BasicCredentials {
  user: string;
  password: string;
}

export function parseBasic(header: string | undefined): BasicCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The document's rule: the token is the Basic user name, the password is ignored. */
export function authenticate({ header, token }: AuthRequest): AuthOutcome {
  if (header === undefined) return 'missing';
  const credentials = parseBasic(header);
  if (!credentials || credentials.user === '') return 'malformed';
  return sameSecret(credentials.user, token) ? 'ok' : 'bad-credentials';
}
