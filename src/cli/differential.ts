import type { Config } from '../config/load.js';
import { renderComparisonTerminal } from '../report/comparison-views.js';
import { renderTerminal } from '../report/terminal.js';
import { runDifferential } from '../runner/differential.js';

/** --compare-to: the target's usual output, then the difference list, then the target's closing counts line. */
export async function runDifferentialCommand(config: Config, compareTo: { baseUrl: string; token: string }): Promise<number> {
  const result = await runDifferential(config, compareTo, {
    onReferenceServer: (url) => console.log(`No --base-url given: testing the embedded reference server at ${url}`),
  });
  const { report } = result.target;
  if (!report.target.embeddedReference) console.log(`Target: ${report.target.baseUrl}`);
  const lines = renderTerminal(report, result.writtenFiles).split('\n');
  const counts = lines.pop() ?? '';
  console.log(lines.join('\n'));
  console.log('');
  console.log(renderComparisonTerminal(result.comparison));
  console.log(`Compare-to reports: ${result.compareTo.writtenFiles.join(', ')}`);
  for (const error of result.errors) console.log(`${error.code}: ${error.message}. ${error.hint}`);
  console.log(counts);
  return result.errors.length > 0 ? 2 : result.comparison.exitCode;
}
