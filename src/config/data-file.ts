import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { formatSchemaErrors, validator, type SchemaName } from '../assertions/schemas.js';
import { ConfigError } from '../errors.js';

/** Reads a JSON or YAML file (by its extension) and checks it against one of our schemas; any problem is one ConfigError. */
export function readDataFile(path: string, schema: SchemaName, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError('CONFIG_INVALID', `the ${what} ${path} could not be read (${reason})`, 'Check the path');
  }
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new ConfigError('CONFIG_INVALID', `the ${what} ${path} is not valid JSON or YAML: ${reason}`, 'Fix the syntax');
  }
  const validate = validator(schema);
  if (!validate(data)) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `the ${what} ${path} does not match schemas/${schema}.schema.json: ${formatSchemaErrors(validate.errors)}`,
      `See schemas/${schema}.schema.json and the README`,
    );
  }
  return data;
}
