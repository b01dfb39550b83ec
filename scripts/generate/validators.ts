import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';
import { GENERATED_VALIDATORS, validatorModuleSource } from './validator-code.js';

writeFileSync(join(packageRoot, GENERATED_VALIDATORS), validatorModuleSource());
console.log(`${GENERATED_VALIDATORS} rewritten from schemas/`);
