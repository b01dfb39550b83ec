import { terminalLine } from '../../report/views/escape/terminal.js';
import { loadBaseline, type LoadedBaseline } from '../../config/baseline.js';
import { loadConfig } from '../../config/load.js';
import { helpText, type Config } from '../../config/settings.js';
import { requirement } from '../../requirements/catalog.js';
import { outcomeLine } from '../../report/views/failure-text.js';
import { verdictLine } from '../../report/views/next-step.js';
import { renderTerminal, warningLine } from '../../report/views/terminal.js';
import { runConformance, type RunHooks } from '../../pipeline/run.js';
import { loadTargets, type TargetEntry } from '../../config/targets.js';
import { suiteVersion } from '../../version.js';
import { safetyWarnings } from '../../config/warnings.js';
import { screenOutput } from '../screen-output.js';
import { fitWidth } from '../../report/views/wrap.js';
import { interruptedExitCode, type CommandIo } from '../io.js';
import type { Report } from '../../report/model/types.js';

/** What the run says while it works: a live line on a terminal (stderr, so stdout stays clean for logs and pipes). */
interface Progress {
  hooks: RunHooks;
  stop(): void;
}

/**
 * First the address being tested, so a log shows at once what the run is doing; then, at a terminal only, a line
 * that ticks with the time spent and the scenarios judged, from the first request to the last verdict.
 */
function progress(baseUrl: string | undefined, live: boolean, quiet: boolean, io: CommandIo): Progress {
  const say = (line: string): void => {
    if (!quiet) io.log(line);
  };
  if (baseUrl) say(`Testing ${baseUrl} ...`);
  const onReferenceServer = (url: string): void => say(`No --base-url given: testing the embedded reference server at ${url}`);
  if (!live) return { hooks: { onReferenceServer }, stop: () => undefined };
  const started = Date.now();
  let stage = 'sending requests';
  const draw = (): void => {
    io.progress(`\r\u001b[2K${fitWidth(`  ${((Date.now() - started) / 1000).toFixed(1)} s · ${stage}`, io.columns?.stderr)}`);
  };
  const ticker = setInterval(draw, 200);
  ticker.unref();
  return {
    hooks: {
      onReferenceServer,
      onScenario: (result, done) => {
        const family = result.requirements[0] ? requirement(result.requirements[0]).family : '';
        stage = `${done} scenarios judged · ${family} · ${result.requestsSent} requests sent`;
        draw();
      },
    },
    stop: () => {
      clearInterval(ticker);
      io.progress('\r\u001b[2K');
    },
  };
}

/**
 * --quiet: the verdict line alone. A next step that points at "the rule below" is told where the lines are, since
 * --quiet prints no more lines.
 */
function quietLine(report: Report, writtenFiles: string[]): string {
  const markdown = writtenFiles.find((path) => path.endsWith('report.md'));
  const snippets = report.exitCode !== 0 && (report.diagnoses[0]?.snippets?.length ?? 0) > 0;
  const where = snippets && markdown ? ` The configuration lines to change are in ${markdown}.` : '';
  return `${verdictLine(report)} (${outcomeLine(report)})${where}`;
}

/** What the run did once Ctrl-C or SIGTERM came, whether it came while requests were on their way or after. */
const signalName = (signal: string): string => (signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal);

function interruptedLine(signal: string, report: Report): string {
  const name = signalName(signal);
  return report.errors.some((error) => error.code === 'HARNESS_INTERRUPTED')
    ? `Interrupted by ${name}: no request was sent after it; what was recorded was judged, and every report is marked as cut short.`
    : `Interrupted by ${name} once every request was answered: the reports are complete.`;
}

/** The default command: one conformance run against one target, or a matrix of the targets of --targets. */
export async function runCommand(argv: string[], io: CommandIo): Promise<number> {
  const config = loadConfig(argv, io.env, io.dotenvPath);
  if (config.help) {
    io.log(helpText(suiteVersion));
    return 0;
  }
  if (config.version) {
    io.log(suiteVersion);
    return 0;
  }
  if (config.compareTo && config.compareToken) {
    const { runCompareToCommand } = await import('../compare-to.js');
    return runCompareToCommand(config, { baseUrl: config.compareTo, token: config.compareToken }, io);
  }
  // Every file is read and checked before the first request.
  const targets = loadTargets(config, io.env, io.dotenvPath);
  const baseline = config.baseline === undefined ? undefined : loadBaseline(config.baseline);
  return config.targets === undefined ? runOneTarget(config, baseline, io) : runTargets(config, targets, baseline, io);
}

/**
 * Lines told in one turn of the event loop (a matrix's targets come back from the judging thread a batch at a time),
 * written together once it ends: one write to stdout for the batch, not a system call for each line.
 */
function linesTogether(log: (text: string) => void): { add(line: string): void; flush(): void } {
  let waiting: string[] = [];
  const flush = (): void => {
    if (waiting.length === 0) return;
    const text = waiting.join('\n');
    waiting = [];
    log(text);
  };
  return {
    add(line) {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push(line);
    },
    flush,
  };
}

/** A matrix of the targets of --targets: a line per target as it is judged, then the matrix. */
async function runTargets(config: Config, targets: TargetEntry[], baseline: LoadedBaseline | undefined, io: CommandIo): Promise<number> {
  io.beforeLongRun?.();
  const [{ runMatrix }, { progressLine, renderMatrixTerminal }] = await Promise.all([
    import('../../pipeline/matrix.js'),
    import('../../report/matrix/terminal.js'),
  ]);
  const interruption = io.interruptible?.();
  const lines = linesTogether(io.log);
  const { matrix, writtenFiles } = await runMatrix(
    config,
    targets,
    baseline,
    { onTarget: (row, done, total) => lines.add(progressLine(row, done, total)), startedAt: io.startedAt },
    { judge: io.judge, ...(interruption ? { interruption: interruption.signal } : {}) },
  ).finally(() => {
    lines.flush();
    interruption?.stop();
  });
  io.log(renderMatrixTerminal(matrix, writtenFiles));
  if (interruption?.signal.aborted) {
    const signal = String(interruption.signal.reason);
    io.error(
      terminalLine(
        `Interrupted by ${signalName(signal)}: no request was sent after it; the targets' reports and the matrix are written, those cut short marked so.`,
      ),
    );
    return interruptedExitCode(signal);
  }
  // The verdicts, could-not-judge included, are in the matrix just written; a fleet job reads them there.
  return config.exitZeroWhenJudged ? 0 : matrix.exitCode;
}

/** One conformance run: the safety warnings, the run with its progress, then the report as text and the exit code. */
async function runOneTarget(config: Config, baseline: LoadedBaseline | undefined, io: CommandIo): Promise<number> {
  for (const warning of safetyWarnings(config, io.env)) io.error(warningLine(warning));
  const live = !config.quiet && io.colour.stderr;
  const shown = progress(config.baseUrl, live, config.quiet, io);
  const interruption = io.interruptible?.();
  const { report, writtenFiles, findLeak } = await runConformance(config, shown.hooks, baseline, {
    env: io.env,
    judge: io.judge,
    ...(interruption ? { interruption: interruption.signal } : {}),
  }).finally(() => {
    shown.stop();
    interruption?.stop();
  });
  const output = screenOutput(reportText(config, report, writtenFiles, io), findLeak);
  io.log(output.text);
  if (interruption?.signal.aborted) {
    const signal = String(interruption.signal.reason);
    io.error(terminalLine(interruptedLine(signal, report)));
    return interruptedExitCode(signal);
  }
  return output.leaked ? 2 : report.exitCode;
}

/** What a run prints of its report on stdout: the verdict line alone with --quiet, the target and the report otherwise. */
function reportText(config: Config, report: Report, writtenFiles: string[], io: CommandIo): string {
  if (config.quiet) return terminalLine(quietLine(report, writtenFiles));
  return [
    ...(report.target.embeddedReference ? [] : [terminalLine(`Target: ${report.target.baseUrl}`)]),
    renderTerminal(report, writtenFiles, {
      colour: io.colour.stdout,
      verbose: config.verbose,
      ...(io.columns?.stdout === undefined ? {} : { width: io.columns.stdout }),
    }),
  ].join('\n');
}
