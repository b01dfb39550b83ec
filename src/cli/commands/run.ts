import { loadBaseline } from '../../config/baseline.js';
import { loadConfig } from '../../config/load.js';
import { helpText } from '../../config/options.js';
import { loadTargets } from '../../config/targets.js';
import { progressLine, renderMatrixTerminal } from '../../report/matrix-terminal.js';
import { renderTerminal } from '../../report/terminal.js';
import { runMatrix } from '../../runner/matrix.js';
import { runConformance } from '../../runner/run.js';
import { suiteVersion } from '../../runner/version.js';

/** The default command: one conformance run against one target, or a matrix of the targets of --targets. */
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
  // Every file is read and checked before the first request.
  const targets = loadTargets(config);
  const baseline = config.baseline === undefined ? undefined : loadBaseline(config.baseline);
  if (config.targets !== undefined) {
    const { matrix, writtenFiles } = await runMatrix(config, targets, baseline, {
      onTarget: (row, done, total) => console.log(progressLine(row, done, total)),
    });
    console.log(renderMatrixTerminal(matrix, writtenFiles));
    return matrix.exitCode;
  }
  const { report, writtenFiles } = await runConformance(
    config,
    { onReferenceServer: (url) => console.log(`No --base-url given: testing the embedded reference server at ${url}`) },
    baseline,
  );
  if (!report.target.embeddedReference) console.log(`Target: ${report.target.baseUrl}`);
  console.log(renderTerminal(report, writtenFiles));
  return report.exitCode;
}
