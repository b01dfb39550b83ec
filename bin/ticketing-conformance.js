#!/usr/bin/env node
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from './source-digest.js';

// V8 keeps the code it compiled for each module on disk and reuses it on the next start (Node 22.1 and later; older
// Nodes lack the function and compile every time). NODE_COMPILE_CACHE, when set, says where; Node's temp folder if not.
module.enableCompileCache?.();

// The installed package ships compiled JavaScript and no src/. A checkout runs its TypeScript source, or its build
// (npm ci builds it) while the build was made from the source as it is: the same code, loaded without the TypeScript
// loader. CONFORMANCE_FROM_SOURCE=1 runs the source whatever the build.
const source = new URL('../src/cli/main.ts', import.meta.url);
const checkout = fileURLToPath(new URL('..', import.meta.url));
if (existsSync(source) && (process.env.CONFORMANCE_FROM_SOURCE === '1' || !buildIsCurrent(checkout))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  // The command line bundled (npm run build): the same code as dist/src/, loaded in far fewer steps.
  await import('../dist/cli/main.js');
}
