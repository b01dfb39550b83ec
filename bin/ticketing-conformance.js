#!/usr/bin/env node
import { existsSync } from 'node:fs';
import module from 'node:module';

// V8 keeps the code it compiled for each module on disk and reuses it on the next start (Node 22.1 and later; older
// Nodes lack the function and compile every time). NODE_COMPILE_CACHE, when set, says where; Node's temp folder if not.
module.enableCompileCache?.();

// The installed package ships compiled JavaScript and no src/; a checkout of the repository runs its TypeScript source.
const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  // The command line bundled (npm run build): the same code as dist/src/, loaded in far fewer steps.
  await import('../dist/cli/main.js');
}
