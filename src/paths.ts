import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Compiled to dist/src/paths.js in the package, and bundled into dist/cli/ with the command line; src/paths.ts when run
 * from source. Each is one folder under the root of the code, which is all the paths below rely on.
 */
export const compiled = import.meta.url.endsWith('.js');
/** The folder holding src/ and specs/: the package itself from source, its dist/ once compiled. */
const codeRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The folder holding package.json and schemas/, whether run from source or from an installed package. */
export const packageRoot = compiled ? resolve(codeRoot, '..') : codeRoot;
export const schemasDir = resolve(packageRoot, 'schemas');
export const specsDir = resolve(codeRoot, 'specs');
/** The suite's own modules (scenario API, checks, catalog) that the specs import. */
const sourceDir = resolve(codeRoot, 'src');
/** The entry of the judging thread: plain JavaScript, the same file from source and compiled. */
export const judgingThreadEntry = resolve(sourceDir, 'judge', 'judging-thread.js');
/** What the judging thread runs once started: the spec run of each batch, then what a matrix asks of its targets. */
export const judgingThreadWork = resolve(sourceDir, 'pipeline', compiled ? 'in-judging-thread.js' : 'in-judging-thread.ts');
/** How the spec files' names end: TypeScript from source, JavaScript once compiled. */
export const specSuffix = compiled ? '.spec.js' : '.spec.ts';
