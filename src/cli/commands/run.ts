import { loadBaseline } from '../../config/baseline.js';
import { loadConfig } from '../../config/load.js';
import { helpText } from '../../config/options.js';
import { requirement } from '../../requirements/catalog.js';
import { colourWanted } from '../../report/colour.js';
import { countsLine } from '../../report/failure-text.js';
import { snippetLines } from '../../report/diagnosis-text.js';
import { verdictLine } from '../../report/next-step.js';
import { renderTerminal, warningLine } from '../../report/terminal.js';
import { runConformance, type RunHooks } from '../../runner/run.js';
import { loadTargets } from '../../config/targets.js';
import { suiteVersion } from '../../runner/version.js';
import { safetyWarnings } from '../../runner/warnings.js';
import { screenOutput } from '../screen-output.js';

/** A live line on a terminal (stderr, so stdout stays clean for logs and pipes); nothing elsewhere. */
function progressHooks(live: boolean, quiet: boolean): RunHooks {
  const say = (line: string): void => {
    if (!quiet) console.log(line);
  };
  if (!live) return { onReferenceServer: (url) => say(`No --base-url given: testing the embedded reference server at ${url}`) };
  return {
    onReferenceServer: (url) => say(`No --base-url given: testing the embedded reference server at ${url}`),
    onScenario: (result, done) => {
      const family = result.requirements[0] ? requirement(result.requirements[0]).family : '';
      process.stderr.write(`\r\u001b[2K  ${done} scenarios done · ${family} · ${result.requestsSent} requests sent`);
    },
  };
}

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
  if (config.compareTo && config.compareToken) {
    const { runDifferentialCommand } = await import('../differential.js');
    return runDifferentialCommand(config, { baseUrl: config.compareTo, token: config.compareToken });
  }
  // Every file is read and checked before the first request.
  const targets = loadTargets(config);
  const baseline = config.baseline === undefined ? undefined : loadBaseline(config.baseline);
  if (config.targets !== undefined) {
    const [{ runMatrix }, { progressLine, renderMatrixTerminal }] = await Promise.all([
      import('../../runner/matrix.js'),
      import('../../report/matrix-terminal.js'),
    ]);
    const { matrix, writtenFiles } = await runMatrix(config, targets, baseline, {
      onTarget: (row, done, total) => console.log(progressLine(row, done, total)),
      // The whole command, as a user timing it sees it: process start included.
      startedAt: new Date(performance.timeOrigin),
    });
    console.log(renderMatrixTerminal(matrix, writtenFiles));
    return matrix.exitCode;
  }
  for (const warning of safetyWarnings(config)) console.error(warningLine(warning));
  const colour = colourWanted(process.stdout);
  const live = !config.quiet && colourWanted(process.stderr);
  const { report, writtenFiles, findLeak } = await runConformance(config, progressHooks(live, config.quiet), baseline);
  if (live) process.stderr.write('\r\u001b[2K');
  // The next step may point at "the rule below": --quiet still shows the lines it means.
  const quietSnippets = report.exitCode !== 0 && report.diagnoses[0] ? snippetLines(report.diagnoses[0]) : [];
  const text = config.quiet
    ? [`${verdictLine(report)} (${countsLine(report.totals)})`, ...quietSnippets].join('\n')
    : [
        ...(report.target.embeddedReference ? [] : [`Target: ${report.target.baseUrl}`]),
        renderTerminal(report, writtenFiles, { colour, verbose: config.verbose }),
      ].join('\n');
  const output = screenOutput(text, findLeak);
  console.log(output.text);
  return output.leaked ? 2 : report.exitCode;
}
