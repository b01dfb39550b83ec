import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatSchemaErrors, validator, type SchemaName } from '../assertions/schemas.js';
import { ConfigError } from '../errors.js';

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
  try {
    return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new ConfigError('CONFIG_INVALID', `the ${what} ${path} is not valid JSON or YAML: ${reason}`, 'Fix the syntax');
  }
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
