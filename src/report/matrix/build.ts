import { catalog } from '../../requirements/catalog.js';
import type { Matrix, MatrixTarget } from './types.js';
import { OUTCOMES, outcomeCounts, waivedRequirements, type Outcome } from '../model/outcomes.js';
import type { ExitCode, Report } from '../model/types.js';
import { MATRIX_SCHEMA_VERSION } from '../../version.js';
import { suiteError } from '../../errors.js';
import type { SecretScanner } from '../../secrets/scanner.js';
import { formatSchemaErrors, validator } from '../../validators/schemas.js';
import { deepFreeze } from '../model/frozen.js';
import { screened } from '../model/screen.js';

type MatrixVerdict = MatrixTarget['verdicts'][string];

export function matrixRow(report: Report, name: string, position: number, reportDir: string): MatrixTarget {
  const row: MatrixTarget = {
    name,
    position,
    baseUrl: report.target.baseUrl,
    verdict: report.verdict,
    exitCode: report.exitCode,
    summary: report.summary,
    totals: report.totals,
    outcomes: outcomeCounts(report),
    strict: report.options.strict,
    waived: [...waivedRequirements(report)],
    requests: report.requests.sent,
    durationMs: report.durationMs,
    reportDir,
    // Each target runs once (repeat 1), so no verdict is flaky; buildMatrix holds matrix.json to its schema, which says so.
    verdicts: Object.fromEntries(report.requirements.map((result) => [result.id, result.verdict as MatrixVerdict])),
  };
  const entries = report.baseline?.entries;
  if (entries) {
    const count = (outcome: string): number => entries.filter((entry) => entry.outcome === outcome).length;
    row.baseline = { known: count('known'), expired: count('expired'), fixed: count('fixed') };
  }
  return row;
}

export type MatrixInput = Omit<Matrix, 'schemaVersion' | 'exitCode' | 'summary' | 'totals' | 'requirements'>;

/**
 * The matrix, built once and frozen: the rows screened for secrets, exit code, totals and summary settled, the result
 * checked against its schema. Every view renders it as it is.
 */
export function buildMatrix(input: MatrixInput, scanner: SecretScanner): Matrix {
  const screenedInput = screened(input, scanner, 'matrix');
  const facts: MatrixInput = {
    ...screenedInput.facts,
    targets: screenedInput.facts.targets
      .map((target, index) => inForm(target, input.targets[index]))
      .sort((a, b) => a.position - b.position),
    errors: [...screenedInput.facts.errors, ...screenedInput.errors],
  };
  const matrix = settledMatrix(facts);
  const validate = validator('matrix');
  if (validate(matrix)) return deepFreeze(matrix);
  const problem = suiteError(`matrix.json does not match schemas/matrix.schema.json: ${formatSchemaErrors(validate.errors)}`);
  return deepFreeze(settledMatrix({ ...facts, errors: [...facts.errors, problem] }));
}

/**
 * A target's name and base URL, once redacted, in the form their schema gives them, so that matrix.json stays on it: the
 * name becomes the target's place in the targets file, the placeholder in the base URL is percent-encoded.
 */
function inForm(target: MatrixTarget, given: MatrixTarget | undefined): MatrixTarget {
  return {
    ...target,
    ...(target.name === given?.name ? {} : { name: `target-${target.position + 1}` }),
    ...(target.baseUrl === given?.baseUrl ? {} : { baseUrl: encodeURI(target.baseUrl) }),
  };
}

/**
 * The matrix's exit code, read as a run's is: a matrix that met an error of its own (cut short, a file not written
 * safely) gives no verdict (2); else one target not conformant makes the fleet not conformant (1), as one failed
 * requirement makes a run, whatever other targets could not be judged; else one target without a verdict leaves the
 * fleet without one (2); else 0.
 */
function matrixExitCode(targets: readonly MatrixTarget[], errors: readonly unknown[]): ExitCode {
  if (errors.length > 0) return 2;
  const codes = new Set(targets.map((target) => target.exitCode));
  if (codes.has(1)) return 1;
  return codes.has(2) ? 2 : 0;
}

function settledMatrix(facts: MatrixInput): Matrix {
  const { targets, errors } = facts;
  const named = (verdict: MatrixTarget['verdict']): MatrixTarget[] => targets.filter((target) => target.verdict === verdict);
  const totals: Matrix['totals'] = {
    targets: targets.length,
    conformant: named('conformant').length,
    notConformant: named('not-conformant').length,
    inconclusive: named('inconclusive').length,
    outcomes: Object.fromEntries(
      OUTCOMES.map((outcome) => [outcome, targets.reduce((sum, target) => sum + target.outcomes[outcome], 0)]),
    ) as Record<Outcome, number>,
  };
  const exitCode = matrixExitCode(targets, errors);
  const list = (rows: MatrixTarget[]): string => {
    const names = rows.slice(0, 5).map((row) => row.name);
    return `${names.join(', ')}${rows.length > 5 ? ` and ${rows.length - 5} more` : ''}`;
  };
  const parts = [`${totals.conformant} conformant`];
  // A target not conformant only in failures its baseline waives passes the gate, and the sentence says so apart.
  const failing = named('not-conformant').filter((target) => target.exitCode !== 0);
  const waivedOnly = named('not-conformant').filter((target) => target.exitCode === 0);
  if (failing.length > 0) parts.push(`${failing.length} not conformant (${list(failing)})`);
  if (waivedOnly.length > 0) parts.push(`${waivedOnly.length} not conformant only in failures the baseline waives (${list(waivedOnly)})`);
  if (totals.inconclusive > 0) parts.push(`${totals.inconclusive} without a verdict (${list(named('inconclusive'))})`);
  const scope = facts.shard ? ` in shard ${facts.shard.index}/${facts.shard.count}` : '';
  const counted =
    targets.length === 0 ? `No target${scope}: nothing was tested.` : `${targets.length} target(s)${scope}: ${parts.join(', ')}.`;
  return {
    schemaVersion: MATRIX_SCHEMA_VERSION,
    ...facts,
    exitCode,
    summary: errors.length > 0 ? `${counted} ${errors[0]?.message ?? ''}.` : counted,
    totals,
    // The document's requirements, and a profile's where a target was judged by it (a run's --profile, a merged shard's).
    requirements: catalog
      .filter((requirement) => requirement.level !== 'CLIENT' || targets.some((target) => requirement.id in target.verdicts))
      .map(({ id, level, family, title }) => ({ id, level, family, title })),
  };
}
