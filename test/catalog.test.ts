import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { catalog, documentCatalog, OFFICIAL_CLIENT } from '../src/requirements/catalog.js';
import { GENERATED_PAGES, withGeneratedSections } from '../scripts/generate/requirements-table.js';
import { repoRoot } from './helpers/run-cli.js';

const documentText = readFileSync(join(repoRoot, '..', 'shared', 'api-document.md'), 'utf8');
const flatten = (text: string): string => text.replaceAll('`', '').replace(/\s+/g, ' ').replaceAll(' | ', ' ');

test.each(Object.keys(GENERATED_PAGES))(
  'the tables of %s match the requirement and fault catalogs (npm run docs:requirements rewrites them)',
  (page) => {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    expect(text).toBe(withGeneratedSections(page, text));
  },
);

test('requirement IDs are unique', () => {
  const ids = catalog.map((requirement) => requirement.id);
  expect(new Set(ids).size).toBe(ids.length);
});

test.each(documentCatalog.map((requirement) => [requirement.id, requirement.quote]))(
  '%s quotes the document word for word',
  (_id, quote) => {
    const documentFlat = flatten(documentText);
    for (const part of quote.split(' / ')) expect(documentFlat).toContain(flatten(part));
  },
);

test.each(catalog.filter((requirement) => requirement.level === 'CLIENT').map((requirement) => [requirement.id, requirement]))(
  '%s quotes one line of the official client, naming the file, the line and the version read',
  (_id, requirement) => {
    const { repository, version, commit } = OFFICIAL_CLIENT;
    expect(requirement.section).toMatch(new RegExp(`^${repository} ${version} \\(${commit.slice(0, 7)}\\), src/[\\w/]+\\.php line \\d+`));
    expect(requirement.quote).not.toContain('\n');
    expect(requirement.quote.length).toBeLessThanOrEqual(100);
    expect(requirement.family).toBe('official-client');
  },
);
