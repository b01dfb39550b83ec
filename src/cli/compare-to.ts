import { terminalLine, terminalLines } from '../report/views/escape/terminal.js';
import type { Config } from '../config/settings.js';
import { renderComparisonTerminal } from '../report/comparison/views.js';
import { renderTerminal } from '../report/views/terminal.js';
import { runCompareTo } from '../pipeline/compare-to.js';
import { screenOutput } from './screen-output.js';
import type { CommandIo } from './io.js';

/** --compare-to: the target's usual output, then the difference list, then the target's closing counts line. */
export async function runCompareToCommand(config: Config, compareTo: { baseUrl: string; token: string }, io: CommandIo): Promise<number> {
  const result = await runCompareTo(
    config,
    compareTo,
    {
      onReferenceServer: (url) => io.log(`No --base-url given: testing the embedded reference server at ${url}`),
    },
    { env: io.env, judge: io.judge },
  );
  const { report } = result.target;
  const lines = renderTerminal(report, result.writtenFiles).split('\n');
  const counts = lines.pop() ?? '';
  const text = [
    ...(report.target.embeddedReference ? [] : [terminalLine(`Target: ${report.target.baseUrl}`)]),
    lines.join('\n'),
    '',
    renderComparisonTerminal(result.comparison),
    terminalLines([
      `Compare-to reports: ${result.compareTo.writtenFiles.join(', ')}`,
      ...result.errors.map((error) => `${error.code}: ${error.message}. ${error.hint}`),
    ]),
    counts,
  ].join('\n');
  // Held to the artifacts' rule, for both servers' tokens, as the output of a single run is.
  const output = screenOutput(text, (shown) => result.target.findLeak(shown) ?? result.compareTo.findLeak(shown));
  io.log(output.text);
  return output.leaked || result.errors.length > 0 ? 2 : result.comparison.exitCode;
}
