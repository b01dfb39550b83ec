/**
 * npm run report:allure [-- DIR | --out DIR]: the Allure HTML report of the run whose reports are in DIR (the run's
 * --out, default CONFORMANCE_OUT or reports; DIR may also be its allure-results folder), from DIR/allure-results into
 * DIR/allure-report, as one file that calls nobody.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { packageRoot } from '../src/paths.js';

const args = process.argv.slice(2);
const flag = args.findIndex((arg) => arg === '--out' || arg.startsWith('--out='));
const flagged = flag < 0 ? undefined : args[flag]?.includes('=') ? args[flag]?.slice('--out='.length) : args[flag + 1];
const positional = args.find((arg, index) => !arg.startsWith('-') && !(flag >= 0 && index === flag + 1));
const given = flagged ?? positional;
const folder = resolve(given ?? process.env.CONFORMANCE_OUT ?? 'reports');
// The allure-results folder itself, or the reports folder holding it.
const out = basename(folder) === 'allure-results' ? dirname(folder) : folder;
const results = join(out, 'allure-results');
if (!existsSync(results) || !readdirSync(results).some((name) => name.endsWith('-result.json'))) {
  console.error(`no Allure results in ${results}: run the suite with --out ${given ?? out} first, then this with the same folder`);
  process.exit(2);
}
const report = join(out, 'allure-report');
const generated = spawnSync(
  join(packageRoot, 'node_modules', '.bin', 'allure'),
  ['generate', results, '--config', join(packageRoot, 'allurerc.json'), '--output', report],
  { stdio: 'inherit', env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' } },
);
if (generated.status === 0) console.log(`Allure report: ${join(report, 'index.html')}`);
else console.error(`allure generate failed${generated.error ? `: ${generated.error.message}` : ''}; the Allure results are in ${results}`);
process.exit(generated.status ?? 2);
