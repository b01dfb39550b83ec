// npm runs prepare after `npm ci` in a checkout and when a project installs the package from a git URL, which gets
// no dist/ from anywhere else. A checkout runs its source and the self-tests bring dist/ up to date themselves, so an
// existing dist/ is left as it is; a missing one is built by the self-tests' incremental build, paid once.
import { existsSync } from 'node:fs';
import buildPackage from '../test/helpers/build-package.js';
import { COMPILED_CLI } from '../test/helpers/run-cli.js';

if (!existsSync(COMPILED_CLI)) await buildPackage();
