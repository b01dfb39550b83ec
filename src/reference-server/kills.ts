/**
 * Each fault of the reference server, and exactly the requirements the suite fails for it.
 * The kill matrix self-test holds the suite to this table; the implementers' guide lists it as common mistakes.
 */
export const expectedKills: Readonly<Record<string, readonly string[]>> = {
  'id-as-string': ['STATUS-ID'],
  'id-of-another-status': ['STATUS-ID'],
  'name-null': ['LANG-TRANSLATION-REPLACES', 'STATUS-NAME'],
  'colour-without-hash': ['STATUS-COLOUR'],
  'colour-three-digits': ['STATUS-COLOUR'],
  'colour-eight-digits': ['STATUS-COLOUR'],
  'colour-not-hex': ['STATUS-COLOUR'],
  'colour-missing': ['STATUS-COLOUR'],
  'auto-close-boolean': ['STATUS-AUTO-CLOSE'],
  'order-float': ['STATUS-ORDER'],
  'created-at-iso-string': ['STATUS-CREATED-AT'],
  'updated-at-null': ['STATUS-UPDATED-AT'],
  'message-empty-string': ['ENV-MESSAGE-NULL'],
  'status-ok': ['ENV-STATUS-SUCCESS'],
  'data-as-array': ['ENV-DATA-OBJECT'],
  'translations-dropped': ['STATUS-TRANSLATIONS'],
  'translations-dropped-with-lang': ['LANG-KEEPS-TRANSLATIONS'],
  'translation-of-another-status': ['TRANSLATION-STATUS-ID'],
  'translation-name-null': ['TRANSLATION-NAME'],
  'locale-three-letters': ['LANG-TRANSLATION-REPLACES', 'TRANSLATION-LOCALE'],
  'locale-with-region': ['LANG-TRANSLATION-REPLACES', 'TRANSLATION-LOCALE'],
  'lang-ignored': ['LANG-TRANSLATION-REPLACES'],
  'lang-changes-colour': ['LANG-OTHER-FIELDS-UNCHANGED'],
  'authorization-stripped': ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED'],
  'password-checked': ['AUTH-PASSWORD-IGNORED'],
  'token-case-insensitive': ['AUTH-NEAR-MISS-TOKEN-REFUSED'],
  'token-prefix-compare': ['AUTH-NEAR-MISS-TOKEN-REFUSED'],
  'token-first-characters': ['AUTH-NEAR-MISS-TOKEN-REFUSED'],
  'token-in-password-accepted': ['AUTH-TOKEN-AS-USER-NAME'],
  'token-from-password-without-user': ['AUTH-TOKEN-AS-USER-NAME'],
  'wrong-token-accepted': [
    'AUTH-NEAR-MISS-TOKEN-REFUSED',
    'AUTH-TOKEN-AS-USER-NAME',
    'AUTH-WRONG-TOKEN-REFUSED',
    'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS',
  ],
  'missing-header-accepted': ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  'malformed-header-accepted': ['AUTH-INVALID-HEADER-REFUSED', 'AUTH-TOKEN-AS-USER-NAME'],
  'token-read-from-password': ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'AUTH-TOKEN-AS-USER-NAME', 'SELFSERVICE-ACCEPTED'],
  'data-null': ['ENV-DATA-OBJECT'],
  'authorization-stripped-on-selfservice': ['HOST-AUTHORIZATION-PASSED', 'SELFSERVICE-ACCEPTED'],
  'selfservice-missing': ['SELFSERVICE-ACCEPTED'],
  'php-notice-before-json': ['ENV-JSON', 'SELFSERVICE-ACCEPTED'],
  'selfservice-open': ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
};

/** Each variant that breaks only a SHOULD, and exactly the requirements the suite warns about: the run still passes. */
export const expectedWarnings: Readonly<Record<string, readonly string[]>> = {
  'utf8-bom': ['ENV-NO-BOM'],
};

/** Each front that answers instead of the API, and the diagnosis that makes the run inconclusive. */
export const expectedFronts: Readonly<Record<string, string>> = {
  'html-page-200': 'api-path-serves-html',
};
