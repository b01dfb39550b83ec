import { afterAll, describe, expect, test } from 'vitest';
import { catalog } from '../src/requirements/catalog.js';
import { variants } from '../src/reference-server/faults.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { failedRequirements, runCli } from './helpers/run-cli.js';

const TOKEN = 'kill-matrix-token-5f1c9a';

/** Each fault of the reference server, and exactly the requirements the suite must fail for it. */
const expectations: Record<string, string[]> = {
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
  'authorization-stripped': ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'SELFSERVICE-ACCEPTED'],
  'password-checked': ['AUTH-PASSWORD-IGNORED'],
  'wrong-token-accepted': ['AUTH-WRONG-TOKEN-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  'missing-header-accepted': ['AUTH-MISSING-HEADER-REFUSED', 'SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  'malformed-header-accepted': ['AUTH-INVALID-HEADER-REFUSED'],
  'selfservice-missing': ['SELFSERVICE-ACCEPTED'],
  'selfservice-open': ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  'html-page-200': ['AUTH-PASSWORD-IGNORED', 'AUTH-TOKEN-ACCEPTED', 'ENV-JSON', 'SELFSERVICE-ACCEPTED'],
};

const faults = variants.filter((variant) => variant.kind === 'fault');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

describe('every fault of the reference server is caught, and only where it breaks a rule', () => {
  test.concurrent.each(faults.map((fault) => [fault.name]))('%s', async (name) => {
    const server = await startReferenceServer({ token: TOKEN, variants: [name] });
    cleanups.push(server.close);
    const run = await runCli(['--base-url', server.url, '--token', TOKEN]);
    cleanups.push(run.cleanup);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.report?.verdict).toBe('not-conformant');
    expect(failedRequirements(run.report)).toEqual([...(expectations[name] ?? ['<no expectation written for this fault>'])].sort());
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
  });
});

test('every fault in the catalog has an expectation, and every expectation a fault', () => {
  expect(Object.keys(expectations).sort()).toEqual(faults.map((fault) => fault.name).sort());
});

test('every MUST requirement is killed by at least one fault', () => {
  const killed = new Set(Object.values(expectations).flat());
  const unkilled = catalog
    .filter((requirement) => requirement.level === 'MUST' && !killed.has(requirement.id))
    .map((requirement) => requirement.id);
  expect(unkilled).toEqual([]);
});
