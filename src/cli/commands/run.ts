import { loadConfig } from '../../config/load.js';
import { helpText } from '../../config/options.js';
import { renderTerminal } from '../../report/terminal.js';
import { runConformance } from '../../runner/run.js';
import { suiteVersion } from '../../runner/version.js';
import { runDifferentialCommand } from '../differential.js';

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
  if (config.compareTo && config.compareToken) {
    return runDifferentialCommand(config, { baseUrl: config.compareTo, token: config.compareToken });
  }
  const { report, writtenFiles } = await runConformance(config, {
    onReferenceServer: (url) => console.log(`No --base-url given: testing the embedded reference server at ${url}`),
  });
  if (!report.target.embeddedReference) console.log(`Target: ${report.target.baseUrl}`);
  console.log(renderTerminal(report, writtenFiles));
  return report.exitCode;
}
