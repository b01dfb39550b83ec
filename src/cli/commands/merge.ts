import { renderMatrixTerminal } from '../../report/matrix/terminal.js';
import { mergeMatrices } from '../../pipeline/merge.js';
import { readCommandLine, required } from '../../config/command-line.js';
import { SETTINGS } from '../../config/settings.js';
import type { CommandIo } from '../io.js';

const USAGE = 'Usage: ticketing-conformance merge shard-1/matrix.json shard-2/matrix.json ... --out DIR [--exit-zero-when-judged]';
const EXIT_ZERO = SETTINGS.exitZeroWhenJudged.flag;

/**
 * Combines shard matrices into one matrix.json, matrix.md and matrix.html; exits with the merged exit code, or 0 once
 * the merged matrix is written when --exit-zero-when-judged is given.
 */
export async function mergeCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = readCommandLine(
    argv,
    { out: { type: 'string' }, [EXIT_ZERO]: { type: 'boolean' } },
    { hint: USAGE, command: 'merge' },
  );
  if (values.help) {
    io.log(
      [
        USAGE,
        '',
        'Every shard of one split must be given once; the merged matrix keeps the order of the targets file.',
        `--${EXIT_ZERO}: exit 0 once the merged matrix is written, whatever its verdicts (a fleet job); 2 still means it could not be merged.`,
      ].join('\n'),
    );
    return 0;
  }
  const out = required(values.out, '--out', USAGE);
  const { matrix, written } = await mergeMatrices(positionals, out);
  io.log(renderMatrixTerminal(matrix, written));
  return values[EXIT_ZERO] === true ? 0 : matrix.exitCode;
}
