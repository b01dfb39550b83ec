import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatSchemaErrors, validator, type SchemaName } from '../validators/schemas.js';
import { ConfigError, HarnessError } from '../errors.js';
import { REPORT_SCHEMA_VERSION, suiteVersion } from '../version.js';

// Loaded only for a YAML file: most runs read none, and the parser costs start-up time.
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

/** Reads a JSON or YAML file (by its extension); any problem is one ConfigError. */
export function parseDataFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError('CONFIG_INVALID', `the ${what} ${path} could not be read (${reason})`, 'Check the path');
  }
  const yaml = /\.ya?ml$/i.test(path);
  try {
    return yaml ? parseYaml(text) : JSON.parse(text);
  } catch {
    // The parser's own words quote the file, which may be a secret given by mistake: only where it stopped is said.
    throw new ConfigError(
      'CONFIG_INVALID',
      `the ${what} ${path} is not valid ${yaml ? 'YAML' : 'JSON'}${syntaxErrorPlace(text)}`,
      'Fix the syntax (is it the right file?)',
    );
  }
}

/** Where a JSON or YAML text stops parsing, as " (line L, column C)", read off the YAML parser (JSON is YAML). */
function syntaxErrorPlace(text: string): string {
  try {
    parseYaml(text);
  } catch (error) {
    const place = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    if (place) return ` (line ${place.line}, column ${place.col})`;
  }
  return '';
}

export function checkAgainstSchema(data: unknown, schema: SchemaName, path: string, what: string): void {
  const validate = validator(schema);
  if (!validate(data)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `the ${what} ${path} does not match schemas/${schema}.schema.json: ${formatSchemaErrors(validate.errors)}`,
      `See schemas/${schema}.schema.json and the README`,
    );
  }
}

/** Reads a JSON or YAML file and checks it against one of our schemas. */
export function readDataFile(path: string, schema: SchemaName, what: string): unknown {
  const data = parseDataFile(path, what);
  checkAgainstSchema(data, schema, path, what);
  return data;
}

/**
 * Refuses a report.json of another layout in one line, with the way to one this suite reads. A version-1 report holds
 * a copy of its exchange in every check, where this one names each by key: reading it would be guesswork.
 */
export function checkReportVersion(data: unknown, path: string): void {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  // Without a version it is not a report at all, which the caller's own check says better.
  if (version === undefined || version === REPORT_SCHEMA_VERSION) return;
  const newer = typeof version === 'number' && version > REPORT_SCHEMA_VERSION;
  throw new HarnessError(
    'HARNESS_REPORT_UNREADABLE',
    `${path} is a report.json of schema version ${JSON.stringify(version)}, which this suite (${suiteVersion}) does not read: it reads version ${REPORT_SCHEMA_VERSION}`,
    newer
      ? 'Read it with the suite that wrote it, or a later one'
      : 'Re-run with this version, or judge its recording.json again with `ticketing-conformance judge`',
    'environment',
  );
}
