import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, schemas/ and specs/, whether run from source or from an installed package. */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const schemasDir = resolve(packageRoot, 'schemas');
export const specsDir = resolve(packageRoot, 'specs');
