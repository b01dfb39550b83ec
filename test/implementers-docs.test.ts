import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { DOCS_DIR, renderImplementerDocs } from '../scripts/generate/implementers-render.js';
import { variants } from '../src/reference-server/faults.js';
import { expectedKills } from '../src/reference-server/kills.js';
import { catalog } from '../src/requirements/catalog.js';
import { repoRoot } from './helpers/run-cli.js';

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
