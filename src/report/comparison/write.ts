import { appendFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../../validators/schemas.js';
import { HarnessError, leakError } from '../../errors.js';
import { createSecretScanner } from '../../http/redact.js';
import type { Comparison } from './types.js';
import { renderComparisonMarkdown } from './views.js';

import { COMPARISON_FILE, recordOwnOutputs } from '../model/outputs.js';
import type { RunError } from '../../errors.js';

/**
 * Writes comparison.json and adds the comparison to the target's report.md, refusing whatever would carry either
 * server's token. A refused artifact comes back as an error (and so exit 2).
 */
export async function writeComparison(
  comparison: Comparison,
  outDir: string,
  tokens: string[],
): Promise<{ written: string[]; errors: RunError[] }> {
  const schemaCheck = validator('comparison');
  if (!schemaCheck(structuredClone(comparison))) {
    throw new HarnessError(
      'HARNESS_INTERNAL',
      `comparison.json does not match schemas/comparison.schema.json: ${formatSchemaErrors(schemaCheck.errors)}`,
      'This is a bug in the suite; please report it',
    );
  }
  const scanner = createSecretScanner(tokens);
  const leaks = (text: string): boolean => scanner.find(text) !== undefined;
  const written: string[] = [];
  const errors: RunError[] = [];

  const json = `${JSON.stringify(comparison, null, 2)}\n`;
  if (leaks(json)) {
    errors.push(leakError(COMPARISON_FILE, 'the API token'));
  } else {
    await writeFile(join(outDir, COMPARISON_FILE), json);
    written.push(join(outDir, COMPARISON_FILE));
    await recordOwnOutputs(outDir, written);
  }

  const markdown = join(outDir, 'report.md');
  const section = renderComparisonMarkdown(comparison);
  if (leaks(section)) errors.push(leakError('the comparison section of report.md', 'the API token'));
  else if (existsSync(markdown)) await appendFile(markdown, section);
  return { written, errors };
}
