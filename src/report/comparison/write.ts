import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatSchemaErrors, validator } from '../../validators/schemas.js';
import { HarnessError } from '../../errors.js';
import type { SecretScanner } from '../../secrets/scanner.js';
import type { Comparison } from './types.js';
import { renderComparisonMarkdown } from './views.js';
import { appendArtifact, putArtifacts, screenArtifacts } from '../../files/artifacts.js';
import { COMPARISON_FILE } from '../model/outputs.js';
import type { RunError } from '../../errors.js';

/**
 * Writes comparison.json and adds the comparison to the target's report.md through the artifact writer, refusing
 * whatever would carry either server's token (the scanner knows both). A refused artifact comes back as an error (and
 * so exit 2).
 */
export async function writeComparison(
  comparison: Comparison,
  outDir: string,
  scanner: SecretScanner,
): Promise<{ written: string[]; errors: RunError[] }> {
  const schemaCheck = validator('comparison');
  if (!schemaCheck(structuredClone(comparison))) {
    throw new HarnessError(
      'HARNESS_INTERNAL',
      `comparison.json does not match schemas/comparison.schema.json: ${formatSchemaErrors(schemaCheck.errors)}`,
      'This is a bug in the suite; please report it',
    );
  }
  const json = screenArtifacts([{ name: COMPARISON_FILE, content: `${JSON.stringify(comparison, null, 2)}\n` }], scanner);
  const written = json.passed.length > 0 ? await putArtifacts(outDir, json.passed) : [];
  const section = screenArtifacts(
    [{ name: 'report.md', content: renderComparisonMarkdown(comparison) }],
    scanner,
    (name) => `the comparison section of ${name}`,
  );
  const markdown = join(outDir, 'report.md');
  // A report.md refused for a secret is not there to take the section.
  for (const file of section.passed) if (existsSync(markdown)) await appendArtifact(markdown, file);
  return { written, errors: [...json.refused, ...section.refused] };
}
