import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';
import { GENERATED_TYPES_DIR, schemaTypeSources } from './schema-type-code.js';

mkdirSync(join(packageRoot, GENERATED_TYPES_DIR), { recursive: true });
for (const [path, source] of await schemaTypeSources()) writeFileSync(join(packageRoot, path), source);
console.log(`${GENERATED_TYPES_DIR}/ rewritten from schemas/`);
