import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../../validators/schemas.js';
import { settleMatrix } from './build.js';
import { renderMatrixHtml } from './html.js';
import { renderMatrixMarkdown } from './markdown.js';
import type { Matrix } from './types.js';
import { clearOwnOutputs, putArtifacts, screenViews, type View } from '../../files/artifacts.js';
import type { SecretScanner } from '../../secrets/scanner.js';
import { suiteError } from '../../errors.js';

export const MATRIX_OUTPUTS = ['matrix.json', 'matrix.md', 'matrix.html'];

export interface WriteMatrixOptions {
  /** When the run began: finishedAt and durationMs are set from it once everything before the matrix files is written. */
  runStartedAt?: Date;
}

/** Sets when the run finished, as late as the views allow: they all say how long it took. */
function stampFinish(matrix: Matrix, startedAt: Date): void {
  const finishedAt = new Date();
  matrix.startedAt = startedAt.toISOString();
  matrix.finishedAt = finishedAt.toISOString();
  matrix.durationMs = finishedAt.getTime() - startedAt.getTime();
}

/**
 * Writes matrix.json (checked against its schema), matrix.md and matrix.html through the artifact writer, refusing any
 * that would hold a token of any target (or an Authorization value). Each view is rendered once and scanned once for
 * every form of every token together; only a refused view, which adds an error the others must show, renders them again.
 */
export async function writeMatrix(
  matrix: Matrix,
  outDir: string,
  scanner: SecretScanner,
  { runStartedAt }: WriteMatrixOptions = {},
): Promise<string[]> {
  await clearOwnOutputs(outDir);
  const validate = validator('matrix');
  if (!validate(matrix)) {
    matrix.errors.push(suiteError(`matrix.json does not match schemas/matrix.schema.json: ${formatSchemaErrors(validate.errors)}`));
    settleMatrix(matrix);
  }
  if (runStartedAt) stampFinish(matrix, runStartedAt);
  // The page links each target's report.html where the target's run wrote one; the page itself reads no disk.
  const pages = new Set(
    matrix.targets.filter((target) => existsSync(join(outDir, target.reportDir, 'report.html'))).map((target) => target.reportDir),
  );
  const views: View<Matrix>[] = [
    ['matrix.json', (final) => `${JSON.stringify(final, null, 2)}\n`],
    ['matrix.md', renderMatrixMarkdown],
    ['matrix.html', (final) => renderMatrixHtml(final, pages)],
  ];
  const rendered = screenViews(matrix, views, scanner, (refused) => {
    matrix.errors.push(...refused);
    settleMatrix(matrix);
  });
  return putArtifacts(outDir, rendered);
}
