import { authorizationHeader, nearMissVariants, type CredentialVariant } from '../../src/exchange/credentials.js';
import { INVALID_HEADER_VARIANTS, PASSWORD_VARIANTS, TOKEN_AS_PASSWORD_VARIANTS } from '../../src/record/plan.js';
import { FIRST_STATUS_ID, MISSING_LOCALE_CANDIDATES, UNKNOWN_STATUS_ID } from '../../src/record/target.js';
import { catalog } from '../../src/requirements/catalog.js';

/**
 * A Postman collection doing the suite's work the way a Newman user would write it: the same requests
 * (one at a time, as Newman sends them) and, for every requirement of the catalog, the same assertion.
 */
export interface CollectionOptions {
  baseUrl: string;
  token: string;
  password: string;
  statusId: number;
}

/** Shared by every test script: the body, the data object, and the suite's notion of "served" (src/judge/checks/auth.ts): the resource decides. */
const PRELUDE = `
const body = (() => { try { return pm.response.json(); } catch (error) { return undefined; } })();
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const data = isObject(body) && isObject(body.data) ? body.data : undefined;
const STATUS_FIELDS = ['id', 'name', 'colour', 'auto_close', 'order', 'created_at', 'updated_at', 'translations'];
const carried = isObject(body) ? (Array.isArray(body.data) ? body.data[0] : body.data) : undefined;
const carriesStatus = () => isObject(carried) && STATUS_FIELDS.filter((field) => field in carried).length >= STATUS_FIELDS.length / 2;
const success = pm.response.code >= 200 && pm.response.code < 300;
const listingOf = (value) => JSON.stringify(isObject(value) && 'data' in value ? value.data : value);
const served = (shape) => success && body !== undefined && (shape === 'any-json' || carriesStatus());
const plain = JSON.parse(pm.collectionVariables.get('plain') || 'null');
const statusId = Number(pm.collectionVariables.get('statusId'));
`;

/** The assertion of each requirement, as a Postman test body; INFO requirements only look. */
const ASSERTIONS: Record<string, string> = {
  'ENV-JSON': `pm.expect(body, 'a JSON body').to.not.equal(undefined);`,
  'ENV-NO-BOM': `pm.expect(pm.response.text().charCodeAt(0)).to.not.equal(0xfeff);`,
  'ENV-STATUS-SUCCESS': `pm.expect(body.status).to.equal('success');`,
  'ENV-MESSAGE-NULL': `pm.expect(body).to.have.property('message', null);`,
  'ENV-DATA-OBJECT': `pm.expect(isObject(body.data)).to.equal(true);`,
  'ENV-CONTENT-TYPE': `pm.response.headers.get('content-type');`,
  'STATUS-ID': `pm.expect(data.id).to.equal(statusId);`,
  'STATUS-NAME': `pm.expect(data.name).to.be.a('string');`,
  'STATUS-COLOUR': `pm.expect(data.colour).to.match(/^#[0-9A-Fa-f]{6}$/);`,
  'STATUS-AUTO-CLOSE': `pm.expect(Number.isInteger(data.auto_close)).to.equal(true);`,
  'STATUS-ORDER': `pm.expect(Number.isInteger(data.order)).to.equal(true);`,
  'STATUS-CREATED-AT': `pm.expect(Number.isInteger(data.created_at)).to.equal(true);`,
  'STATUS-UPDATED-AT': `pm.expect(Number.isInteger(data.updated_at)).to.equal(true);`,
  'STATUS-TRANSLATIONS': `pm.expect(data.translations).to.be.an('array');`,
  'TRANSLATION-STATUS-ID': `data.translations.forEach((entry) => pm.expect(entry.status_id).to.equal(statusId));`,
  'TRANSLATION-NAME': `data.translations.forEach((entry) => pm.expect(entry.name).to.be.a('string'));`,
  'TRANSLATION-LOCALE': `data.translations.forEach((entry) => pm.expect(entry.locale).to.match(/^[A-Za-z]{2}$/));`,
  'STATUS-OPEN-FIRST': `pm.expect(served('envelope')).to.equal(true); pm.expect(data.name).to.equal('Open');`,
  'STATUS-AUTO-CLOSE-VALUES': `data.auto_close;`,
  'STATUS-TIMESTAMP-UNIT': `[data.created_at, data.updated_at].map((value) => (value > 1e11 ? 'milliseconds' : 'seconds'));`,
  'STATUS-UNKNOWN-ID': `pm.response.code;`,
  'LANG-TRANSLATION-REPLACES': `pm.expect(data.name).to.equal(pm.collectionVariables.get('translatedName'));`,
  'LANG-KEEPS-TRANSLATIONS': `pm.expect(data.translations).to.deep.equal(plain.translations);`,
  'LANG-OTHER-FIELDS-UNCHANGED': `['id', 'colour', 'auto_close', 'order', 'created_at', 'updated_at'].forEach((field) => pm.expect(data[field]).to.deep.equal(plain[field]));`,
  'LANG-MISSING-FALLBACK': `data && data.name === plain.name;`,
  'AUTH-TOKEN-ACCEPTED': `pm.expect(served('envelope')).to.equal(true);`,
  'AUTH-PASSWORD-IGNORED': `pm.expect(served('envelope')).to.equal(true);`,
  'AUTH-WRONG-TOKEN-REFUSED': `pm.expect(carriesStatus()).to.equal(false);`,
  'AUTH-NEAR-MISS-TOKEN-REFUSED': `pm.expect(carriesStatus()).to.equal(false);`,
  'AUTH-TOKEN-AS-USER-NAME': `pm.expect(carriesStatus()).to.equal(false);`,
  'AUTH-MISSING-HEADER-REFUSED': `pm.expect(carriesStatus()).to.equal(false);`,
  'AUTH-INVALID-HEADER-REFUSED': `pm.expect(carriesStatus()).to.equal(false);`,
  'AUTH-ERROR-RESPONSE': `[pm.response.code, body];`,
  'HOST-AUTHORIZATION-PASSED': `pm.expect([401, 403], 'the header arrived').to.not.include(pm.response.code);`,
  'SELFSERVICE-ACCEPTED': `pm.expect(body, 'a JSON body').to.not.equal(undefined); pm.expect(served('any-json')).to.equal(true);`,
  'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS': `pm.expect(listingOf(body)).to.not.equal(pm.collectionVariables.get('listing'));`,
  'SELFSERVICE-SHAPE': `isObject(body) ? Object.keys(body) : body;`,
};

/** The first status answer names the locales the lang requests ask for, as Target.translatedLocale does. */
const REMEMBER_PLAIN = `
if (data) {
  pm.collectionVariables.set('plain', JSON.stringify(data));
  const translations = Array.isArray(data.translations) ? data.translations : [];
  const translated = translations.find((entry) => isObject(entry) && typeof entry.locale === 'string' && typeof entry.name === 'string');
  pm.collectionVariables.set('translatedLocale', translated ? translated.locale : '');
  pm.collectionVariables.set('translatedName', translated ? translated.name : '');
  const present = translations.map((entry) => String(isObject(entry) ? entry.locale : '').toLowerCase());
  pm.collectionVariables.set('missingLocale', ${JSON.stringify(MISSING_LOCALE_CANDIDATES)}.find((code) => !present.includes(code)) || 'zz');
}
`;

interface Step {
  name: string;
  path: string;
  query?: { key: string; value: string }[];
  credentials: CredentialVariant;
  requirements: string[];
  before?: string;
}

function testScript(requirements: string[], before = ''): string[] {
  const tests = requirements.map((id) => {
    const requirement = catalog.find((entry) => entry.id === id);
    const assertion = ASSERTIONS[id];
    if (!requirement || assertion === undefined) throw new Error(`no Newman assertion for requirement ${id}`);
    return `pm.test(${JSON.stringify(`${id} (${requirement.level}): ${requirement.title}`)}, function () { ${assertion} });`;
  });
  // A function scope of its own: the sandbox already has globals such as data.
  return `(function () {${PRELUDE}${before}\n${tests.join('\n')}\n})();`.split('\n');
}

/** The same status asked with each of `variants`, every answer judged by `requirement`. */
const variantSteps = (path: string, variants: readonly CredentialVariant[], requirement: string): Step[] =>
  variants.map((credentials) => ({ name: `status, ${credentials}`, path, credentials, requirements: [requirement] }));

/** The requests asked with the token, each judged by the requirements of what it serves. */
function servedSteps(statusId: number): Step[] {
  const status = `/api/ticket/status/${statusId}`;
  const envelope = ['ENV-JSON', 'ENV-STATUS-SUCCESS', 'ENV-MESSAGE-NULL', 'ENV-DATA-OBJECT'];
  const fields = catalog.filter((entry) => entry.family === 'status' && entry.level === 'MUST').map((entry) => entry.id);
  const first: Step = {
    name: 'first status',
    path: `/api/ticket/status/${FIRST_STATUS_ID}`,
    credentials: 'valid',
    requirements: ['STATUS-OPEN-FIRST'],
  };
  return [
    {
      name: 'status',
      path: status,
      credentials: 'valid',
      requirements: [
        ...envelope,
        'ENV-NO-BOM',
        'ENV-CONTENT-TYPE',
        ...fields,
        'STATUS-AUTO-CLOSE-VALUES',
        'STATUS-TIMESTAMP-UNIT',
        'AUTH-TOKEN-ACCEPTED',
        ...(statusId === FIRST_STATUS_ID ? first.requirements : []),
      ],
      before: REMEMBER_PLAIN,
    },
    {
      name: 'status with a translated lang',
      path: status,
      query: [{ key: 'lang', value: '{{translatedLocale}}' }],
      credentials: 'valid',
      requirements: [...envelope, 'LANG-TRANSLATION-REPLACES', 'LANG-KEEPS-TRANSLATIONS', 'LANG-OTHER-FIELDS-UNCHANGED'],
    },
    {
      name: 'status with an untranslated lang',
      path: status,
      query: [{ key: 'lang', value: '{{missingLocale}}' }],
      credentials: 'valid',
      requirements: ['LANG-MISSING-FALLBACK', 'LANG-KEEPS-TRANSLATIONS'],
    },
    ...(statusId === FIRST_STATUS_ID ? [] : [first]),
    { name: 'unknown status', path: `/api/ticket/status/${UNKNOWN_STATUS_ID}`, credentials: 'valid', requirements: ['STATUS-UNKNOWN-ID'] },
    {
      name: 'selfservice',
      path: '/api/selfservice/type',
      credentials: 'valid',
      requirements: ['SELFSERVICE-ACCEPTED', 'SELFSERVICE-SHAPE', 'HOST-AUTHORIZATION-PASSED'],
      before: `pm.collectionVariables.set('listing', listingOf(body));`,
    },
  ];
}

/** The requests asked with other credentials than the token, each judged by how it is refused or served. */
function credentialSteps(statusId: number, token: string): Step[] {
  const status = `/api/ticket/status/${statusId}`;
  return [
    ...(['no-header', 'wrong-token'] as const).map((credentials) => ({
      name: `selfservice, ${credentials}`,
      path: '/api/selfservice/type',
      credentials,
      requirements: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
    })),
    {
      name: 'status, wrong token',
      path: status,
      credentials: 'wrong-token',
      requirements: ['AUTH-WRONG-TOKEN-REFUSED', 'AUTH-ERROR-RESPONSE'],
    },
    {
      name: 'status, no header',
      path: status,
      credentials: 'no-header',
      requirements: ['AUTH-MISSING-HEADER-REFUSED', 'AUTH-ERROR-RESPONSE'],
    },
    ...variantSteps(status, PASSWORD_VARIANTS, 'AUTH-PASSWORD-IGNORED'),
    ...variantSteps(status, INVALID_HEADER_VARIANTS, 'AUTH-INVALID-HEADER-REFUSED'),
    ...variantSteps(status, nearMissVariants(token), 'AUTH-NEAR-MISS-TOKEN-REFUSED'),
    ...variantSteps(status, TOKEN_AS_PASSWORD_VARIANTS, 'AUTH-TOKEN-AS-USER-NAME'),
  ];
}

const steps = (statusId: number, token: string): Step[] => [...servedSteps(statusId), ...credentialSteps(statusId, token)];

export function newmanCollection(options: CollectionOptions): object {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const item = steps(options.statusId, options.token).map((step) => {
    const authorization = authorizationHeader(step.credentials, options.token, options.password);
    const query = step.query ?? [];
    return {
      name: step.name,
      request: {
        method: 'GET',
        header: [
          { key: 'Accept', value: 'application/json' },
          ...(authorization === undefined ? [] : [{ key: 'Authorization', value: authorization }]),
        ],
        url: {
          raw: `${base.origin}${prefix}${step.path}${query.length ? `?${query.map((entry) => `${entry.key}=${entry.value}`).join('&')}` : ''}`,
          protocol: base.protocol.replace(':', ''),
          host: [base.hostname],
          port: base.port,
          path: `${prefix}${step.path}`.split('/').filter(Boolean),
          query,
        },
      },
      event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(step.requirements, step.before) } }],
    };
  });
  return {
    info: {
      name: 'ticketing-conformance (Newman equivalent)',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [{ key: 'statusId', value: String(options.statusId) }],
    item,
  };
}

/** Requirements that some request of the collection asserts (or observes), to prove the collection covers the catalog. */
export function coveredRequirements(statusId: number): string[] {
  return [...new Set(steps(statusId, 'a-token').flatMap((step) => step.requirements))].sort();
}
