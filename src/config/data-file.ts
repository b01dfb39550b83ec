import { createRequire } from 'node:module';
import { formatSchemaErrors, validator, type SchemaName } from '../validators/schemas.js';
import { ConfigError, HarnessError } from '../errors.js';
import { REPORT_SCHEMA_VERSION, suiteVersion } from '../version.js';
import { checkJsonShape, readBoundedText, type Refusal } from './bounded-file.js';

// Loaded only for a YAML file or a syntax error: most runs read none, and the parser costs start-up time.
const yamlParser = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

type YamlProblem = { linePos?: { line: number; col: number }[] };
const place = (problem: YamlProblem | undefined): string => {
  const at = problem?.linePos?.[0];
  return at ? ` (line ${at.line}, column ${at.col})` : '';
};

/**
 * Parses YAML without the parser's own words, which quote the file (it may be a secret given by mistake): an error, or
 * a warning such as an unknown tag (`!!js/function`), is refused by where it is only.
 */
function parseYaml(text: string, refuse: Refusal): unknown {
  const document = yamlParser().parseDocument(text);
  const [error] = document.errors;
  if (error) throw refuse(`is not valid YAML${place(error)}`);
  const [warning] = document.warnings;
  if (warning) {
    const what = warning.code === 'TAG_RESOLVE_FAILED' ? 'a tag the suite does not read' : 'YAML the suite does not read';
    throw refuse(`has ${what}${place(warning)}`, 'Write plain YAML: maps, lists, strings and numbers, no tags');
  }
  try {
    return document.toJS();
  } catch {
    throw refuse('is not valid YAML (its aliases expand past what the parser allows)');
  }
}

/** Where a JSON text stops parsing, read off the YAML parser (JSON is YAML): V8's own message quotes the text. */
function syntaxErrorPlace(text: string): string {
  return place(yamlParser().parseDocument(text).errors[0]);
}

/** Parses JSON text of a file, its shape checked first; a problem is refused by its place, never quoting the file. */
export function parseJsonText(text: string, refuse: Refusal): unknown {
  checkJsonShape(text, refuse);
  try {
    return JSON.parse(text);
  } catch {
    throw refuse(`is not valid JSON${syntaxErrorPlace(text)}`);
  }
}

/** Reads a JSON or YAML file (by its extension) within bounds; any problem is one ConfigError. */
export function parseDataFile(path: string, what: string): unknown {
  const refuse: Refusal = (reason, hint = 'Check the path and the file (is it the right one?)') =>
    new ConfigError('CONFIG_INVALID', `the ${what} ${path} ${reason}`, hint);
  const text = readBoundedText(path, refuse);
  return /\.ya?ml$/i.test(path) ? parseYaml(text, refuse) : parseJsonText(text, refuse);
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
