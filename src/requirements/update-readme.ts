import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { withGeneratedSections } from './table.js';

const readmePath = join(packageRoot, 'README.md');
writeFileSync(readmePath, withGeneratedSections(readFileSync(readmePath, 'utf8')));
console.log('README.md tables rewritten from the requirement catalog and the fault catalog');
