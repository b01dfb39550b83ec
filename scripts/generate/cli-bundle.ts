import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';
import { bundleCli, CLI_BUNDLE_DIR } from './bundle-cli.js';

await bundleCli(join(packageRoot, 'dist'));
console.log(`dist/${CLI_BUNDLE_DIR}/ bundled from dist/src/cli/main.js`);
