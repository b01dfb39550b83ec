import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { DOCS_DIR, renderImplementerDocs } from '../scripts/generate/implementers-render.js';
import { variants } from '../src/reference-server/faults.js';
import { expectedKills } from '../src/reference-server/kills.js';
import { catalog } from '../src/requirements/catalog.js';
import { startReferenceServer } from '../src/reference-server/server.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';

const LINK_TOKEN = 'implementers-link-token-3f81c2';
const { inProcess } = fileResources({ reports: ['json', 'md'] });

let pages: Record<string, string>;
beforeAll(async () => {
  pages = await renderImplementerDocs();
});

test('docs/implementers/ is what npm run docs:implementers writes, and nothing else', () => {
  const folder = join(repoRoot, DOCS_DIR);
  expect(readdirSync(folder).sort()).toEqual(Object.keys(pages).sort());
  for (const [name, content] of Object.entries(pages)) expect(readFileSync(join(folder, name), 'utf8'), name).toBe(content);
});

test('each requirement is on its family page with its quote, and each fault that kills it is named there', () => {
  for (const requirement of catalog) {
    const page = pages[`${requirement.family}.md`] ?? '';
    expect(page).toContain(`### ${requirement.id} (${requirement.level})`);
    expect(page).toContain(`> ${requirement.quote}`);
    for (const [fault, killed] of Object.entries(expectedKills)) {
      if (killed.includes(requirement.id))
        expect(page).toContain(`- \`${fault}\`: ${variants.find((v) => v.name === fault)?.summary ?? ''}`);
    }
  }
});

test('examples use <API_TOKEN> and show the reference server answering', () => {
  const status = pages['status.md'] ?? '';
  expect(status).toContain("curl -sS -u '<API_TOKEN>:x' 'https://help.example.com/api/ticket/status/1'");
  expect(status).toContain('"colour": "#35a600"');
  expect(pages['lang.md']).toContain('"name": "Ouvrir"');
  expect(pages['auth.md']).toMatch(/HTTP 401\nContent-Type: application\/json/);
});

/** GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation other than hyphens dropped. */
const headingAnchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replaceAll(/[^a-z0-9 -]/g, '')
    .replaceAll(' ', '-');

test("each failure in the terminal and in report.md names its requirement's page for implementers, a page and heading that exist", async () => {
  // Faults of three families: a field missing, lang ignored, the envelope's message filled in.
  const cases = [
    { fault: 'colour-missing', requirement: 'STATUS-COLOUR', page: 'docs/implementers/status.md#status-colour-must' },
    { fault: 'lang-ignored', requirement: 'LANG-TRANSLATION-REPLACES', page: 'docs/implementers/lang.md#lang-translation-replaces-must' },
    { fault: 'message-empty-string', requirement: 'ENV-MESSAGE-NULL', page: 'docs/implementers/envelope.md#env-message-null-must' },
  ];
  for (const { fault, requirement, page } of cases) {
    const server = await startReferenceServer({ token: LINK_TOKEN, variants: [fault] });
    const run = await inProcess.run(['--base-url', server.url, '--token', LINK_TOKEN]);
    try {
      expect(run.code, fault).toBe(1);
      expect(run.report?.requirements.find((result) => result.id === requirement)?.verdict, fault).toBe('fail');
      const terminal = run.stdout.split('\n');
      const markdown = (await readFile(join(run.outDir, 'report.md'), 'utf8')).split('\n');
      for (const lines of [terminal, markdown])
        expect(
          lines.filter((line) => line.trim() === `See:      ${page}` || line.trim() === `See:    ${page}`).length,
          fault,
        ).toBeGreaterThan(0);
      // Every page named exists, with the heading its anchor points at.
      for (const named of [...terminal, ...markdown].flatMap((line) => /See:\s+(docs\/implementers\/\S+)/.exec(line)?.[1] ?? [])) {
        const [file = '', anchor = ''] = named.split('#');
        const headings = readFileSync(join(repoRoot, file), 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('### '))
          .map((line) => headingAnchor(line.slice(4)));
        expect(headings, named).toContain(anchor);
      }
    } finally {
      await Promise.all([server.close(), run.cleanup()]);
    }
  }
});
