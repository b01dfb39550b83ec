import buildPackage from '../../test/helpers/build-package.js';
import { CLI_BUNDLE_DIR } from './bundle-cli.js';

// npm run build (after removing dist/): the same build as the self-tests' global setup, the source's digest first,
// then the compiler (dist/src, dist/specs), then the bundle (dist/cli). With dist/ gone it compiles everything afresh.
await buildPackage();
console.log(`dist/ compiled, and dist/${CLI_BUNDLE_DIR}/ bundled from dist/src/cli/main.js`);
