import type { Profile, Requirement, RequirementText } from './types.js';

/**
 * The vendor's PHP client as read for the CLIENT requirements: the release, and the commit of its tag. Its src/ is the
 * same at the newest commit read (65adb9d); the lines a CLIENT requirement cites have not moved since v2.0.0.
 */
export const OFFICIAL_CLIENT = {
  repository: 'supportpal/api-client-php',
  version: 'v2.5.0',
  commit: '6581207033543652d88c8516b09bb80eddafdc25',
} as const;

/** Where a CLIENT requirement's quote stands in the client. */
function clientLine(file: string, line: number): string {
  return `${OFFICIAL_CLIENT.repository} ${OFFICIAL_CLIENT.version} (${OFFICIAL_CLIENT.commit.slice(0, 7)}), ${file} line ${line}`;
}

/**
 * Every requirement, keyed by its ID. The keys are the type RequirementId, so a spec that names an ID the catalog
 * lacks does not compile, and an editor's "go to definition" on an ID in a check opens its entry here.
 */
export const requirements = {
  'ENV-JSON': {
    level: 'MUST',
    family: 'envelope',
    title: 'A successful response body is JSON',
    section: 'What the service does',
    quote: 'Responses are JSON.',
  },
  'ENV-NO-BOM': {
    level: 'SHOULD',
    family: 'envelope',
    title:
      "no UTF-8 byte order mark before the JSON (RFC 8259 section 8.1 forbids adding one to networked JSON; PHP's json_decode rejects it)",
    section: 'What the service does',
    quote: 'Responses are JSON.',
  },
  'ENV-STATUS-SUCCESS': {
    level: 'MUST',
    family: 'envelope',
    title: 'status is the string "success" on a successful response',
    section: 'Resources and their fields / Response envelope',
    quote: 'status | string | The value `success` is shown for a successful response.',
  },
  'ENV-MESSAGE-NULL': {
    level: 'MUST',
    family: 'envelope',
    title: 'message is null on success',
    section: 'Resources and their fields / Response envelope',
    quote: 'message | string or null | `null` on success.',
  },
  'ENV-DATA-OBJECT': {
    level: 'MUST',
    family: 'envelope',
    title: 'data is an object holding the requested resource',
    section: 'Resources and their fields / Response envelope',
    quote: 'data | object | The requested resource.',
  },
  'ENV-CONTENT-TYPE': {
    level: 'INFO',
    family: 'envelope',
    title: 'Content-Type announced for JSON responses (the media type is not stated)',
    section: 'What the service does',
    quote: 'Responses are JSON.',
  },
  'STATUS-ID': {
    level: 'MUST',
    family: 'status',
    title: 'id is an integer equal to the requested status id',
    section: 'Ticket status',
    quote: 'id | integer | Identifier of the status.',
  },
  'STATUS-NAME': {
    level: 'MUST',
    family: 'status',
    title: 'name is a string',
    section: 'Ticket status',
    quote: 'name | string | Display name.',
  },
  'STATUS-COLOUR': {
    level: 'MUST',
    family: 'status',
    title: 'colour is "#" followed by six hexadecimal digits',
    section: 'Ticket status',
    quote: 'colour | string | Colour as a hash sign followed by six hexadecimal digits.',
  },
  'STATUS-AUTO-CLOSE': {
    level: 'MUST',
    family: 'status',
    title: 'auto_close is an integer',
    section: 'Ticket status',
    quote: 'auto_close | integer | Numeric flag.',
  },
  'STATUS-ORDER': {
    level: 'MUST',
    family: 'status',
    title: 'order is an integer',
    section: 'Ticket status',
    quote: 'order | integer | Position of the status.',
  },
  'STATUS-CREATED-AT': {
    level: 'MUST',
    family: 'status',
    title: 'created_at is an integer',
    section: 'Ticket status',
    quote: 'created_at | integer | Creation time. Its unit and epoch are not stated.',
  },
  'STATUS-UPDATED-AT': {
    level: 'MUST',
    family: 'status',
    title: 'updated_at is an integer',
    section: 'Ticket status',
    quote: 'updated_at | integer | Last update time, same kind as created_at.',
  },
  'STATUS-TRANSLATIONS': {
    level: 'MUST',
    family: 'status',
    title: 'translations is an array, present without lang',
    section: 'Ticket status, rule 1',
    quote:
      'translations | array of translation | One entry per available translation. / The `translations` array is present in the result whether or not a language was requested.',
  },
  'TRANSLATION-STATUS-ID': {
    level: 'MUST',
    family: 'status',
    title: "each translation's status_id is the requested status' id",
    section: 'Ticket status / Translation entry',
    quote: 'status_id | integer | The id of the status that the translation belongs to.',
  },
  'TRANSLATION-NAME': {
    level: 'MUST',
    family: 'status',
    title: "each translation's name is a string",
    section: 'Ticket status / Translation entry',
    quote: 'name | string | Translated name.',
  },
  'TRANSLATION-LOCALE': {
    level: 'MUST',
    family: 'status',
    title: "each translation's locale is a two-letter code",
    section: 'Ticket status / Translation entry',
    quote: 'locale | string | Language code of the translation, a two-letter code.',
  },
  'STATUS-OPEN-FIRST': {
    level: 'SHOULD',
    family: 'status',
    title: 'the first status (id 1) is named "Open" (installations may rename it)',
    section: 'States and transitions',
    quote: 'A status named "Open" exists with id of the first status.',
  },
  'STATUS-AUTO-CLOSE-VALUES': {
    level: 'INFO',
    family: 'status',
    title: 'auto_close value seen (its meaning is not stated)',
    section: 'Ticket status, rule 2',
    quote: 'Meaning of auto_close values: not shown.',
  },
  'STATUS-TIMESTAMP-UNIT': {
    level: 'INFO',
    family: 'status',
    title: 'unit that created_at/updated_at appear to use (not stated)',
    section: 'Ticket status',
    quote: 'created_at | integer | Creation time. Its unit and epoch are not stated.',
  },
  'STATUS-UNKNOWN-ID': {
    level: 'INFO',
    family: 'status',
    title: 'answer to a status id that does not exist (not stated)',
    section: 'Errors',
    quote: 'Errors other than authentication failure: not shown.',
  },
  'LANG-TRANSLATION-REPLACES': {
    level: 'MUST',
    family: 'lang',
    title: "lang with a translation replaces name with that translation's name",
    section: 'Endpoints, lang rule 2',
    quote:
      'With `lang` set to a locale for which a translation exists, the default content in `data` (for instance `name`) is replaced by that translation.',
  },
  'LANG-KEEPS-TRANSLATIONS': {
    level: 'MUST',
    family: 'lang',
    title: 'translations is still returned, unchanged, when lang is given',
    section: 'Endpoints, lang rule 2; Ticket status, rule 1',
    quote: '`translations` is still returned. / The `translations` array is present in the result whether or not a language was requested.',
  },
  'LANG-OTHER-FIELDS-UNCHANGED': {
    level: 'MUST',
    family: 'lang',
    title: 'lang changes only translated content: id, colour, auto_close, order and times stay the same',
    section: 'Endpoints, lang rule 2',
    quote: 'the default content in `data` (for instance `name`) is replaced by that translation.',
  },
  'LANG-MISSING-FALLBACK': {
    level: 'INFO',
    family: 'lang',
    title: 'answer when lang names a locale with no translation (the fallback is not stated)',
    section: 'Endpoints, lang rule 3',
    quote:
      'Behaviour when `lang` names a locale with no translation: not shown beyond the words "if available" (the fallback is not stated).',
  },
  'AUTH-TOKEN-ACCEPTED': {
    level: 'MUST',
    family: 'auth',
    title: 'the API token as Basic user name is accepted',
    section: 'Authentication, rule 2',
    quote:
      'The API token is sent as the user name, in the standard `Authorization` header (Basic scheme, credentials of the form `<API_TOKEN>:<any_value>`).',
  },
  'AUTH-PASSWORD-IGNORED': {
    level: 'MUST',
    family: 'auth',
    title: 'any password is accepted with a valid token (letter, empty, long, with ":")',
    section: 'Authentication, rule 3',
    quote: 'The password part is ignored. Any value may be used, and the reference call uses a single letter.',
  },
  'AUTH-WRONG-TOKEN-REFUSED': {
    level: 'MUST',
    family: 'auth',
    title: 'a wrong token fails authentication',
    section: 'Authentication, rule 4; Errors',
    quote: 'A request with bad credentials or an invalid authorization header fails authentication.',
  },
  'AUTH-NEAR-MISS-TOKEN-REFUSED': {
    level: 'MUST',
    family: 'auth',
    title: 'a token one slip from the valid one fails: one letter in the other case, the last character dropped, one appended',
    section: 'Authentication, rule 4; Errors',
    quote: 'A request with bad credentials or an invalid authorization header fails authentication.',
  },
  'AUTH-TOKEN-AS-USER-NAME': {
    level: 'MUST',
    family: 'auth',
    title: 'the token counts only as the user name: sent as the password with another user name, it fails',
    section: 'Authentication, rules 2 and 3',
    quote:
      'The API token is sent as the user name, in the standard `Authorization` header (Basic scheme, credentials of the form `<API_TOKEN>:<any_value>`). / The password part is ignored.',
  },
  'AUTH-MISSING-HEADER-REFUSED': {
    level: 'MUST',
    family: 'auth',
    title: 'a request without an Authorization header fails authentication',
    section: 'Endpoints; Authentication, rule 1',
    quote: 'Every call carries the authentication described below. / The service uses HTTP Basic Authentication with an API token.',
  },
  'AUTH-INVALID-HEADER-REFUSED': {
    level: 'MUST',
    family: 'auth',
    title: 'invalid Authorization headers fail (other scheme, bad base64, no colon, empty)',
    section: 'Authentication, rule 4; Errors',
    quote: 'A request with bad credentials or an invalid authorization header fails authentication.',
  },
  'HOST-AUTHORIZATION-PASSED': {
    level: 'MUST',
    family: 'auth',
    title:
      'the web server hosting the service passes the Authorization header to the application, on every API path and request (judged where the answers show it)',
    section: 'Authentication, rule 5',
    quote: 'The web server hosting the service must pass the HTTP `Authorization` header through to the application.',
  },
  'AUTH-ERROR-RESPONSE': {
    level: 'INFO',
    family: 'auth',
    title: 'HTTP status and body of a failed authentication (not stated)',
    section: 'Errors',
    quote: 'The HTTP status code, the `status` value and the body shape of an error response: not shown.',
  },
  'SELFSERVICE-ACCEPTED': {
    level: 'MUST',
    family: 'selfservice',
    title: 'the reference call GET /api/selfservice/type succeeds with valid credentials',
    section: 'Authentication, reference call',
    quote: 'Reference call shape: `GET {base_url}/api/selfservice/type` with Basic credentials `<API_TOKEN>:<ANY_VALUE>`.',
  },
  'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS': {
    level: 'MUST',
    family: 'selfservice',
    title: 'GET /api/selfservice/type fails without credentials or with a wrong token',
    section: 'Endpoints; Authentication, rule 4',
    quote:
      'Every call carries the authentication described below. / A request with bad credentials or an invalid authorization header fails authentication.',
  },
  'SELFSERVICE-SHAPE': {
    level: 'INFO',
    family: 'selfservice',
    title: 'body shape of /api/selfservice/type (not stated)',
    section: 'Endpoints',
    quote: 'GET | `/api/selfservice/type` | none shown | none | Body shape: not shown.',
  },
  'CLIENT-PHP-JSON-DECODE': {
    level: 'CLIENT',
    family: 'official-client',
    title:
      'the body passes json_decode with depth 512 and JSON_THROW_ON_ERROR: no byte order mark, no text around the JSON, valid UTF-8, no unpaired \\u surrogate, fewer than 512 levels of nesting',
    section: clientLine('src/Http/Client.php', 78),
    quote: '$body = json_decode((string) $response->getBody(), true, 512, JSON_THROW_ON_ERROR);',
  },
  'CLIENT-PHP-HTTP-200': {
    level: 'CLIENT',
    family: 'official-client',
    title: 'the HTTP status is exactly 200: any other, 201 and 203 included, makes the client throw',
    section: clientLine('src/Http/Client.php', 89),
    quote: 'if ($response->getStatusCode() !== 200',
  },
  'CLIENT-PHP-STATUS-SET': {
    level: 'CLIENT',
    family: 'official-client',
    title: 'the decoded body is a JSON object (a PHP array) whose status is set and not null',
    section: clientLine('src/Http/Client.php', 91),
    quote: "|| ! isset($body['status'])",
  },
  'CLIENT-PHP-STATUS-NOT-ERROR': {
    level: 'CLIENT',
    family: 'official-client',
    title: 'status is not "error"',
    section: clientLine('src/Http/Client.php', 92),
    quote: "|| $body['status'] === 'error'",
  },
  'CLIENT-PHP-DATA-ARRAY': {
    level: 'CLIENT',
    family: 'official-client',
    title: 'data is a JSON object (a PHP array), which the client builds its Status from; anything else is a TypeError',
    section: clientLine('src/Api/Ticket/Statuses.php', 42),
    quote: 'private function createStatusModel(array $data): Status',
  },
  'CLIENT-PHP-INT-CAST': {
    level: 'CLIENT',
    family: 'official-client',
    title:
      'id, auto_close, order, created_at, updated_at and each translation\'s id and status_id hold a value PHP\'s (int) cast keeps: the client reads "abc" as 0, without an error',
    section: `${clientLine('src/Model/Ticket/Status.php', 27)} (and lines 30 to 33; src/Model/Ticket/StatusTranslation.php lines 16 and 17)`,
    quote: "'id'         => 'int',",
  },
} satisfies Record<string, RequirementText>;

export type RequirementId = keyof typeof requirements;

/** The requirements in catalog order, each with its ID. */
export const catalog: readonly Requirement[] = Object.entries(requirements).map(([id, text]) => ({ id: id as RequirementId, ...text }));

/** The requirements of the document: what every run judges. */
export const documentCatalog: readonly Requirement[] = catalog.filter((requirement) => requirement.level !== 'CLIENT');

/** What a run judges: the document's requirements, and those of the profile it was given. */
export function judgedCatalog(profile: Profile | undefined): readonly Requirement[] {
  return profile === 'official-client' ? catalog : documentCatalog;
}

const byId = new Map<string, Requirement>(catalog.map((entry) => [entry.id, entry]));

export function requirement(id: string): Requirement {
  const found = byId.get(id);
  if (!found) throw new Error(`unknown requirement ${id}: add it to src/requirements/catalog.ts`);
  return found;
}

/** The anchor of a requirement's section on its family's page of docs/implementers (its heading: "ID (LEVEL)"). */
export function implementersAnchor(id: string): string {
  return `${id.toLowerCase()}-${requirement(id).level.toLowerCase()}`;
}

/** Where an implementer reads what a requirement checks and the mistakes that fail it. */
export function implementersPage(id: string): string {
  return `docs/implementers/${requirement(id).family}.md#${implementersAnchor(id)}`;
}

/** An ID read from a file or from plain JavaScript, where the compiler could not check it. */
export function isRequirementId(id: string): id is RequirementId {
  return Object.hasOwn(requirements, id);
}
