import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { schemasDir } from '../../src/paths.js';
import { OPENAPI_BUNDLE, renderBundle } from './openapi-bundle-render.js';

const file = join(schemasDir, OPENAPI_BUNDLE);
const options = await resolveConfig(file);
await writeFile(file, await format(renderBundle(schemasDir), { ...options, filepath: file }));
console.log(`schemas/${OPENAPI_BUNDLE} rewritten from schemas/openapi.json and the JSON Schemas it references`);
