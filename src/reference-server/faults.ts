import type { StatusRecord } from './data.js';
import { parseBasic, type AuthOutcome, type AuthRequest } from './auth.js';

export interface StatusEnvelope {
  status: unknown;
  message: unknown;
  data: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface ResponseStyle {
  contentType: string;
  encoding?: 'gzip' | 'deflate' | 'br';
  chunked: boolean;
  keepAlive: boolean;
  refusalStatus: number;
  /** Every answer is this HTML page with HTTP 200, as when a web server serves a front end for every path. */
  htmlPage?: string;
  delayMs: number;
  bom?: boolean;
  /** Text printed before every JSON body, as PHP does with display_errors on. */
  prefix?: string;
}

export interface Variant {
  name: string;
  /**
   * fault: breaks a MUST of the document; warning: breaks only a SHOULD; quirk: unusual but conformant; intermittent:
   * breaks a rule only sometimes; front: something in front of the API answers instead of it, so the run cannot judge.
   */
  kind: 'fault' | 'warning' | 'quirk' | 'intermittent' | 'front';
  /** The mistake or the oddity, in a sentence an implementer recognises. */
  summary: string;
  authenticate?(request: AuthRequest, conformant: AuthOutcome): AuthOutcome;
  /** `repeated` counts earlier answers to the very same request (path, query and credentials). */
  status?(envelope: StatusEnvelope, request: { lang?: string; record: StatusRecord; repeated: number }): unknown;
  missingLangStatus?: number;
  langMatch?: 'case-insensitive';
  selfservice?: 'missing';
  style?: Partial<ResponseStyle>;
}

const withData = (envelope: StatusEnvelope, changes: Record<string, unknown>): StatusEnvelope => ({
  ...envelope,
  data: { ...envelope.data, ...changes },
});
const withoutField = (envelope: StatusEnvelope, field: string): StatusEnvelope => ({
  ...envelope,
  data: Object.fromEntries(Object.entries(envelope.data).filter(([key]) => key !== field)),
});
const mapTranslations = (envelope: StatusEnvelope, map: (entry: Record<string, unknown>) => Record<string, unknown>): StatusEnvelope =>
  withData(envelope, { translations: (envelope.data.translations as Record<string, unknown>[]).map(map) });

const FRONT_END_PAGE = '<!DOCTYPE html><html><head><title>Help Desk</title></head><body><div id="app">Loading…</div></body></html>';

export const variants: readonly Variant[] = [
  // Faults: each breaks one rule of the document.
  {
    name: 'id-as-string',
    kind: 'fault',
    summary: 'id is sent as a string ("1") instead of an integer',
    status: (e) => withData(e, { id: String(e.data.id) }),
  },
  {
    name: 'id-of-another-status',
    kind: 'fault',
    summary: 'the status returned is not the one requested',
    status: (e) => withData(e, { id: Number(e.data.id) + 1 }),
  },
  { name: 'name-null', kind: 'fault', summary: 'name is null instead of a string', status: (e) => withData(e, { name: null }) },
  {
    name: 'colour-without-hash',
    kind: 'fault',
    summary: 'colour lacks the leading "#"',
    status: (e) => withData(e, { colour: String(e.data.colour).slice(1) }),
  },
  {
    name: 'colour-three-digits',
    kind: 'fault',
    summary: 'colour uses the three-digit short form',
    status: (e) => withData(e, { colour: '#3a0' }),
  },
  {
    name: 'colour-eight-digits',
    kind: 'fault',
    summary: 'colour carries an alpha channel (eight digits)',
    status: (e) => withData(e, { colour: `${String(e.data.colour)}ff` }),
  },
  {
    name: 'colour-not-hex',
    kind: 'fault',
    summary: 'colour has a character that is not hexadecimal',
    status: (e) => withData(e, { colour: '#35g600' }),
  },
  { name: 'colour-missing', kind: 'fault', summary: 'the colour field is left out', status: (e) => withoutField(e, 'colour') },
  {
    name: 'auto-close-boolean',
    kind: 'fault',
    summary: 'auto_close is a JSON boolean instead of an integer flag',
    status: (e) => withData(e, { auto_close: e.data.auto_close === 1 }),
  },
  { name: 'order-float', kind: 'fault', summary: 'order is a fractional number', status: (e) => withData(e, { order: 1.5 }) },
  {
    name: 'created-at-iso-string',
    kind: 'fault',
    summary: 'created_at is an ISO date string instead of an integer',
    status: (e) => withData(e, { created_at: new Date(Number(e.data.created_at) * 1000).toISOString() }),
  },
  { name: 'updated-at-null', kind: 'fault', summary: 'updated_at is null', status: (e) => withData(e, { updated_at: null }) },
  {
    name: 'message-empty-string',
    kind: 'fault',
    summary: 'message is "" instead of null on success',
    status: (e) => ({ ...e, message: '' }),
  },
  { name: 'status-ok', kind: 'fault', summary: 'status is "ok" instead of "success"', status: (e) => ({ ...e, status: 'ok' }) },
  {
    name: 'data-as-array',
    kind: 'fault',
    summary: 'data is an array holding the status instead of the status object',
    status: (e) => ({ ...e, data: [e.data] as unknown as Record<string, unknown> }),
  },
  {
    name: 'translations-dropped',
    kind: 'fault',
    summary: 'translations is left out when no lang is asked for',
    status: (e, r) => (r.lang === undefined ? withoutField(e, 'translations') : e),
  },
  {
    name: 'translations-dropped-with-lang',
    kind: 'fault',
    summary: 'translations is left out when lang is asked for',
    status: (e, r) => (r.lang === undefined ? e : withoutField(e, 'translations')),
  },
  {
    name: 'translation-of-another-status',
    kind: 'fault',
    summary: "a translation's status_id names another status",
    status: (e) => mapTranslations(e, (t) => ({ ...t, status_id: Number(t.status_id) + 1 })),
  },
  {
    name: 'translation-name-null',
    kind: 'fault',
    summary: "a translation's name is null",
    status: (e) => mapTranslations(e, (t) => ({ ...t, name: null })),
  },
  {
    name: 'locale-three-letters',
    kind: 'fault',
    summary: 'locales use three-letter codes ("fra")',
    status: (e) => mapTranslations(e, (t) => ({ ...t, locale: `${String(t.locale)}a` })),
  },
  {
    name: 'locale-with-region',
    kind: 'fault',
    summary: 'locales carry a region ("fr_FR")',
    status: (e) => mapTranslations(e, (t) => ({ ...t, locale: `${String(t.locale)}_${String(t.locale).toUpperCase()}` })),
  },
  {
    name: 'lang-ignored',
    kind: 'fault',
    summary: 'lang is ignored: name stays in the default language',
    status: (e, r) => (r.lang === undefined ? e : withData(e, { name: r.record.name })),
  },
  {
    name: 'lang-changes-colour',
    kind: 'fault',
    summary: 'lang also changes colour, which no translation carries',
    status: (e, r) => (r.lang === undefined ? e : withData(e, { colour: '#000000' })),
  },
  {
    name: 'authorization-stripped',
    kind: 'fault',
    summary:
      'the web server strips the Authorization header on the way to /api/... (a location or proxy route of its own), while /index.php/api/... gets it',
    authenticate: (r, c) => (r.frontController ? c : 'missing'),
  },
  {
    name: 'password-checked',
    kind: 'fault',
    summary: 'the password must be "x" instead of being ignored',
    authenticate: (r, c) => (c === 'ok' && parseBasic(r.header)?.password !== 'x' ? 'bad-credentials' : c),
  },
  {
    name: 'token-case-insensitive',
    kind: 'fault',
    summary: 'the token is compared without regard to case, as a _ci collation on the token column does',
    authenticate: (r, c) => (c === 'bad-credentials' && parseBasic(r.header)?.user.toLowerCase() === r.token.toLowerCase() ? 'ok' : c),
  },
  {
    name: 'token-prefix-compare',
    kind: 'fault',
    summary: 'any user name that starts with the token is accepted',
    authenticate: (r, c) => (c === 'bad-credentials' && parseBasic(r.header)?.user.startsWith(r.token) ? 'ok' : c),
  },
  {
    name: 'token-first-characters',
    kind: 'fault',
    summary: 'only the first eight characters of the user name are compared with the token',
    authenticate: (r, c) => (c === 'bad-credentials' && parseBasic(r.header)?.user.slice(0, 8) === r.token.slice(0, 8) ? 'ok' : c),
  },
  {
    name: 'token-in-password-accepted',
    kind: 'fault',
    summary: 'the token is also accepted in the password position, whatever the user name',
    authenticate: (r, c) => (c === 'bad-credentials' && parseBasic(r.header)?.password === r.token ? 'ok' : c),
  },
  {
    name: 'token-from-password-without-user',
    kind: 'fault',
    summary: "the token is taken from the password when the user name is empty (PHP: $_SERVER['PHP_AUTH_USER'] ?: $_SERVER['PHP_AUTH_PW'])",
    authenticate: (r, c) => {
      const credentials = parseBasic(r.header);
      return c === 'malformed' && credentials?.user === '' && credentials.password === r.token ? 'ok' : c;
    },
  },
  {
    name: 'wrong-token-accepted',
    kind: 'fault',
    summary: 'any token is accepted',
    authenticate: (_r, c) => (c === 'bad-credentials' ? 'ok' : c),
  },
  {
    name: 'missing-header-accepted',
    kind: 'fault',
    summary: 'a request without an Authorization header is served',
    authenticate: (_r, c) => (c === 'missing' ? 'ok' : c),
  },
  {
    name: 'malformed-header-accepted',
    kind: 'fault',
    summary: 'a malformed Authorization header is served',
    authenticate: (_r, c) => (c === 'malformed' ? 'ok' : c),
  },
  {
    name: 'token-read-from-password',
    kind: 'fault',
    summary: 'the token is read from the password, not the user name, as some frameworks read an API key',
    authenticate: (r, c) => {
      if (c !== 'ok' && c !== 'bad-credentials') return c;
      return parseBasic(r.header)?.password === r.token ? 'ok' : 'bad-credentials';
    },
  },
  {
    name: 'data-null',
    kind: 'fault',
    summary: 'the success envelope of a status holds data: null',
    status: (e) => ({ ...e, data: null }),
  },
  {
    name: 'authorization-stripped-on-selfservice',
    kind: 'fault',
    summary: 'the web server strips the Authorization header on the selfservice path only (a location or proxy route of its own)',
    authenticate: (r, c) => (r.route === 'selfservice' ? 'missing' : c),
  },
  { name: 'selfservice-missing', kind: 'fault', summary: 'GET /api/selfservice/type is not routed', selfservice: 'missing' },
  {
    name: 'selfservice-open',
    kind: 'fault',
    summary: 'GET /api/selfservice/type answers without credentials',
    authenticate: (r, c) => (r.route === 'selfservice' ? 'ok' : c),
  },

  {
    name: 'php-notice-before-json',
    kind: 'fault',
    summary: 'a PHP notice is printed before the JSON (display_errors on in production)',
    style: { prefix: '<br />\n<b>Notice</b>:  Undefined index: lang in /var/www/helpdesk/api/index.php on line 42<br />\n' },
  },

  {
    name: 'colour-breaks-on-repeat',
    kind: 'intermittent',
    summary: 'colour is right the first time a request is made and wrong when it is made again',
    status: (e, r) => (r.repeated > 0 ? withData(e, { colour: 'green' }) : e),
  },

  // Breaks only a SHOULD: the run warns and still passes.
  {
    name: 'utf8-bom',
    kind: 'warning',
    summary: 'a UTF-8 byte order mark before the JSON, as some PHP files add (RFC 8259 forbids it; PHP clients reject it)',
    style: { bom: true },
  },

  // Fronts: the API is never reached, so nothing can be judged.
  { name: 'html-page-200', kind: 'front', summary: 'every path answers an HTML page with HTTP 200', style: { htmlPage: FRONT_END_PAGE } },

  // Quirks: unusual, but the document allows them.
  {
    name: 'extra-fields',
    kind: 'quirk',
    summary: 'extra top-level fields (count, start, limit) and extra data fields',
    status: (e) => ({ ...withData(e, { icon: null, description: '' }), count: 1, start: 0, limit: 50 }),
  },
  {
    name: 'charset',
    kind: 'quirk',
    summary: 'Content-Type application/json; charset=utf-8',
    style: { contentType: 'application/json; charset=utf-8' },
  },
  { name: 'gzip', kind: 'quirk', summary: 'gzip response encoding', style: { encoding: 'gzip' } },
  { name: 'deflate', kind: 'quirk', summary: 'deflate response encoding', style: { encoding: 'deflate' } },
  { name: 'brotli', kind: 'quirk', summary: 'brotli response encoding', style: { encoding: 'br' } },
  { name: 'chunked', kind: 'quirk', summary: 'chunked transfer encoding, no Content-Length', style: { chunked: true } },
  { name: 'keep-alive-off', kind: 'quirk', summary: 'Connection: close on every response', style: { keepAlive: false } },
  { name: 'refuse-with-403', kind: 'quirk', summary: 'refused credentials answer 403 instead of 401', style: { refusalStatus: 403 } },
  {
    name: 'missing-lang-404',
    kind: 'quirk',
    summary: 'lang with no translation answers 404 instead of falling back',
    missingLangStatus: 404,
  },
  {
    name: 'deep-extra-field',
    kind: 'quirk',
    summary: "an extra field nested 500 levels deep, within what the vendor's PHP client decodes (depth 512)",
    status: (e) => {
      let meta: unknown = 0;
      for (let level = 0; level < 500; level += 1) meta = [meta];
      return { ...e, meta };
    },
  },
  { name: 'slow', kind: 'quirk', summary: 'every answer takes 300 ms, well within the time-out', style: { delayMs: 300 } },
];

const byName = new Map(variants.map((variant) => [variant.name, variant]));

export function variantNamed(name: string): Variant {
  const variant = byName.get(name);
  if (!variant) throw new Error(`unknown fault or quirk "${name}"; known: ${[...byName.keys()].join(', ')}`);
  return variant;
}
