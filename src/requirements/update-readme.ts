import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { withRequirementTable } from './table.js';

const readmePath = join(packageRoot, 'README.md');
writeFileSync(readmePath, withRequirementTable(readFileSync(readmePath, 'utf8')));
console.log('README.md requirement table rewritten from src/requirements/catalog.ts');
