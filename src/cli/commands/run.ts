import { loadConfig } from '../../config/load.js';
import { helpText } from '../../config/options.js';
import { renderTerminal, warningLine } from '../../report/terminal.js';
import { runConformance } from '../../runner/run.js';
import { suiteVersion } from '../../runner/version.js';
import { safetyWarnings } from '../../runner/warnings.js';
import { screenOutput } from '../screen-output.js';

/** The default command: one conformance run against one target. */
export async function runCommand(argv: string[]): Promise<number> {
  const config = loadConfig(argv);
  if (config.help) {
    console.log(helpText(suiteVersion));
    return 0;
  }
  if (config.version) {
    console.log(suiteVersion);
    return 0;
  }
  for (const warning of safetyWarnings(config)) console.error(warningLine(warning));
  const { report, writtenFiles, findLeak } = await runConformance(config, {
    onReferenceServer: (url) => console.log(`No --base-url given: testing the embedded reference server at ${url}`),
  });
  if (!report.target.embeddedReference) console.log(`Target: ${report.target.baseUrl}`);
  const output = screenOutput(renderTerminal(report, writtenFiles), findLeak);
  console.log(output.text);
  return output.leaked ? 2 : report.exitCode;
}
