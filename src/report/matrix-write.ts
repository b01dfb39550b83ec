import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../assertions/schemas.js';
import { findSecret } from '../harness/redact.js';
import { settleMatrix } from './matrix.js';
import { renderMatrixHtml } from './matrix-html.js';
import { renderMatrixMarkdown } from './matrix-markdown.js';
import type { Matrix } from './matrix-types.js';
import { suiteError } from './suite-error.js';
import { leakError } from './suite-error.js';

export const MATRIX_OUTPUTS = ['matrix.json', 'matrix.md', 'matrix.html'];

export async function clearMatrixOutputs(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all(MATRIX_OUTPUTS.map((name) => rm(join(outDir, name), { force: true })));
}

/** Writes matrix.json (checked against its schema), matrix.md and matrix.html, refusing any that would hold a token. */
export async function writeMatrix(matrix: Matrix, outDir: string, tokens: string[]): Promise<string[]> {
  await clearMatrixOutputs(outDir);
  const validate = validator('matrix');
  if (!validate(structuredClone(matrix))) {
    matrix.errors.push(suiteError(`matrix.json does not match schemas/matrix.schema.json: ${formatSchemaErrors(validate.errors)}`));
  }
  const views: [string, (matrix: Matrix) => string][] = [
    ['matrix.json', (final) => `${JSON.stringify(final, null, 2)}\n`],
    ['matrix.md', renderMatrixMarkdown],
    ['matrix.html', (final) => renderMatrixHtml(final, outDir)],
  ];
  const leaking = views.filter(([, render]) => tokens.some((token) => findSecret(render(matrix), token)));
  matrix.errors.push(...leaking.map(([name]) => leakError(name, 'the API token')));
  settleMatrix(matrix);
  const written: string[] = [];
  for (const [name, render] of views) {
    if (leaking.some(([leaked]) => leaked === name)) continue;
    await writeFile(join(outDir, name), render(matrix));
    written.push(join(outDir, name));
  }
  return written;
}
