import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { sourceDigest } from '../../bin/source-digest.js';
import { packageRoot } from '../../src/paths.js';
import { bundleCli, CLI_BUNDLE_DIR } from './bundle-cli.js';

// npm run build: the source's digest, then the compiler (dist/src, dist/specs), then the bundle (dist/cli).
const digest = sourceDigest(packageRoot);
execFileSync(process.execPath, [join(packageRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
  cwd: packageRoot,
  stdio: 'inherit',
});
await bundleCli(join(packageRoot, 'dist'), digest);
console.log(`dist/ compiled, and dist/${CLI_BUNDLE_DIR}/ bundled from dist/src/cli/main.js`);
