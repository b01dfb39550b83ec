import { ConfigError } from '../../errors.js';
import { SETTINGS } from '../../config/settings.js';
import { createSecretScanner } from '../../secrets/scanner.js';
import { terminalLine } from '../../report/views/escape/terminal.js';
import { outcomeLine } from '../../report/views/failure-text.js';
import { verdictLine } from '../../report/views/next-step.js';
import { renderTerminal } from '../../report/views/terminal.js';
import { judgeRecording, missingAnswers, recordingDifferences } from '../../pipeline/judge-recording.js';
import { readRecording } from '../../record/recording-file.js';
import { screenOutput } from '../screen-output.js';
import { readCommandLine } from '../../config/command-line.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance judge RECORDING.json [--out DIR] [--quiet] [--verbose]';
const HELP = `${USAGE}

Judges a recording.json again with this suite's specs and requirement catalog, without sending a single
request, and writes the same reports a run writes (report.json, report.md, report.html, junit.xml,
allure-results/) to --out (default ${SETTINGS.out.default}). A recording made by another version of the suite
is judged by this one: what changed in the catalog is said, and a requirement whose request the
recording does not hold is an error (HARNESS_NOT_RECORDED), never a guess.

Exit codes: as a run's (0 conformant, 1 not conformant, 2 could not judge); 2 also when the file is
missing, not JSON or not a recording.`;

/** ticketing-conformance judge RECORDING.json: the verdict of a recorded run, reached again offline. */
export async function judgeCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = readCommandLine(
    argv,
    { out: { type: 'string' }, quiet: { type: 'boolean' }, verbose: { type: 'boolean' } },
    { hint: USAGE, command: 'judge' },
  );
  if (values.help) {
    io.log(HELP);
    return 0;
  }
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) {
    throw new ConfigError('CONFIG_INVALID', `judge takes one recording.json, ${positionals.length} given`, USAGE);
  }
  const out = values.out ?? SETTINGS.out.default;
  const file = await readRecording(path);
  const { report, writtenFiles } = await judgeRecording(file, out, {}, { env: io.env, judge: io.judge });
  const lacking = missingAnswers(report);
  const notes = [
    `Judged ${path}: recorded ${file.startedAt} from ${file.target.baseUrl}; no request was sent.`,
    ...recordingDifferences(file),
    ...(lacking.length > 0
      ? [`The recording holds no answer to requests the current specs make for ${lacking.join(', ')}: judged as errors, not guessed.`]
      : []),
  ];
  const text = values.quiet
    ? terminalLine(`${verdictLine(report)} (${outcomeLine(report)})`)
    : [
        ...notes.map(terminalLine),
        renderTerminal(report, writtenFiles, { colour: io.colour.stdout, verbose: values.verbose === true }),
      ].join('\n');
  // The recording holds no token to look for; an Authorization value a target echoed is still caught.
  const scanner = createSecretScanner([]);
  const output = screenOutput(text, (shown) => scanner.find(shown));
  io.log(output.text);
  return output.leaked ? 2 : report.exitCode;
}
