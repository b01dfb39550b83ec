import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';
import { DOCS_DIR, renderImplementerDocs } from './implementers-render.js';

const folder = join(packageRoot, DOCS_DIR);
await mkdir(folder, { recursive: true });
const pages = await renderImplementerDocs();
for (const [name, content] of Object.entries(pages)) await writeFile(join(folder, name), content);
console.log(`${DOCS_DIR}/: ${Object.keys(pages).join(', ')} rewritten from the catalogs`);
