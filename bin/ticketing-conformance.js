#!/usr/bin/env node
import { existsSync } from 'node:fs';

// The installed package ships compiled JavaScript and no src/; a checkout of the repository runs its TypeScript source.
const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/src/cli/main.js');
}
