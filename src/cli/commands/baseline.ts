import { artifactScanner, writeNamedFile } from '../../files/artifacts.js';
import type { Baseline, KnownFailure } from '../../config/baseline.js';
import { ConfigError } from '../../errors.js';
import { readResultFile } from '../../report/model/read.js';
import { failsRun, type Outcome } from '../../report/model/outcomes.js';
import { targetOutcome } from '../../report/matrix/cells.js';
import { readCommandLine, required } from '../../config/command-line.js';
import type { CommandIo } from '../io.js';

const USAGE =
  'Usage: ticketing-conformance baseline --from report.json|matrix.json --owner NAME --reason TEXT --expires YYYY-MM-DD [--out baseline.json]';

/** A target's failures, those its baseline already waives included, as failsRun has them for a report. */
const FAILS_WITHOUT_BASELINE: ReadonlySet<Outcome | undefined> = new Set(['failed', 'waived']);

function expiry(raw: string): string {
  const date = new Date(`${raw}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
    throw new ConfigError('CONFIG_INVALID', `--expires "${raw}" is not a date`, 'Pass a day as YYYY-MM-DD, e.g. --expires 2030-06-30');
  }
  if (raw < new Date().toISOString().slice(0, 10)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `--expires ${raw} is in the past`,
      'A known failure needs a day from today on until which it is waived',
    );
  }
  return raw;
}

/** Writes a baseline holding every failure of a report (or of each target of a matrix) as a known failure. */
export async function baselineCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = readCommandLine(
    argv,
    {
      from: { type: 'string' },
      owner: { type: 'string' },
      reason: { type: 'string' },
      expires: { type: 'string' },
      out: { type: 'string' },
    },
    { hint: USAGE, command: 'baseline' },
  );
  if (values.help) {
    io.log(`${USAGE}\n\nEvery failing requirement of the report becomes a known failure that does not fail later runs before --expires.`);
    return 0;
  }
  const from = required(values.from, '--from', USAGE);
  const common = {
    reason: required(values.reason, '--reason', USAGE),
    owner: required(values.owner, '--owner', USAGE),
    expires: expiry(required(values.expires, '--expires', USAGE)),
  };
  const out = typeof values.out === 'string' ? values.out : 'baseline.json';
  const source = readResultFile(from, 'report or matrix');
  const knownFailures: KnownFailure[] =
    source.kind === 'report'
      ? source.report.requirements
          .filter((result) => failsRun(result, source.report.options.strict))
          .map((result) => ({ requirement: result.id, ...common }))
      : source.matrix.targets.flatMap((target) =>
          source.matrix.requirements
            .filter((requirement) => FAILS_WITHOUT_BASELINE.has(targetOutcome(target, requirement)))
            .map(({ id }) => ({ requirement: id, target: target.name, ...common })),
        );
  const baseline: Baseline = { schemaVersion: 1, knownFailures };
  await writeNamedFile(
    out,
    `${JSON.stringify(baseline, null, 2)}\n`,
    artifactScanner([]),
    'the baseline',
    'Pass --out a file path in a folder this user can write',
  );
  io.log(`Wrote ${knownFailures.length} known failure(s) from ${from} to ${out}, waived until ${common.expires}.`);
  return 0;
}
