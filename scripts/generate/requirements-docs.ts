import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';
import { GENERATED_PAGES, withGeneratedSections } from './requirements-table.js';

for (const page of Object.keys(GENERATED_PAGES)) {
  const path = join(packageRoot, page);
  writeFileSync(path, withGeneratedSections(page, readFileSync(path, 'utf8')));
}
console.log(`${Object.keys(GENERATED_PAGES).join(' and ')}: tables rewritten from the requirement catalog and the fault catalog`);
