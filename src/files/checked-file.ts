import { createRequire } from 'node:module';
import { ConfigError, HarnessError, type HarnessErrorCode } from '../errors.js';
import { formatSchemaErrors, validator, type SchemaName } from '../validators/schemas.js';
import { checkJsonShape, readBoundedText, type Refusal } from './bounded-file.js';

/**
 * A kind of file the suite reads (a targets file, a baseline, a report, a recording): how its errors name it, which
 * code and fix they carry, and the schema it must match. T is the type of a file valid against that schema.
 */
export interface FileKind<T> {
  /** How a message names the file, before its path: "the targets file", "the recording". */
  what: string;
  code: HarnessErrorCode;
  /** The fix for a file that cannot be read or parsed, or is not of this kind; by default, to check which file it is. */
  hint?: string;
  /**
   * The schema the parsed data must match, or how to tell it from the data (a report or a matrix). None only for a
   * reader that must take any content: verify tells an edited report from one it cannot read.
   */
  schema?: SchemaName | ((data: unknown) => SchemaName);
  /** The fix for data that does not match the schema; by default, the schema itself. */
  invalidHint?: string;
  /** JSON and, by the file's extension (.yaml, .yml), YAML; otherwise JSON whatever the extension. */
  yaml?: boolean;
  /**
   * Reads the parsed data before the schema does: refuses a file of another kind or version in words the schema's
   * errors would not find, and may bring an older layout to the current one, which it returns.
   */
  prepare?: (data: unknown, refuse: Refusal, path: string) => unknown;
  /** Phantom: ties T to the kind, so the reader returns the type its schema checked. */
  readonly type?: T;
}

/**
 * The error for a file of a kind, given why (said after its name and path) and, maybe, a more precise fix: for the
 * reader's own refusals and for the checks a caller makes beyond the schema.
 */
export function fileRefusal(path: string, kind: FileKind<unknown>): Refusal {
  return (reason, hint = kind.hint ?? 'Check the path and the file (is it the right one?)') => {
    const message = `${kind.what} ${path} ${reason}`;
    return kind.code.startsWith('CONFIG_')
      ? new ConfigError(kind.code as Extract<HarnessErrorCode, `CONFIG_${string}`>, message, hint)
      : new HarnessError(kind.code, message, hint, 'environment');
  };
}

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

/** Parses JSON, its shape checked first; a problem is refused by its place (read off the YAML parser), never quoting the file. */
function parseJson(text: string, refuse: Refusal): unknown {
  checkJsonShape(text, refuse);
  try {
    return JSON.parse(text);
  } catch {
    // JSON is YAML; V8's own message quotes the text.
    throw refuse(`is not valid JSON${place(yamlParser().parseDocument(text).errors[0])}`);
  }
}

/**
 * Reads a file of a kind: a regular file within the size bound, parsed as JSON (or YAML), prepared, then checked
 * against the kind's schema. Any failure (missing, too large, not parseable, not of the kind, not valid) is one error
 * of the kind's code, naming the file and the fix.
 */
export function readCheckedFile<T>(path: string, kind: FileKind<T>): T {
  const refuse = fileRefusal(path, kind);
  const text = readBoundedText(path, refuse);
  // An empty file parses as nothing (YAML) or fails at its end (JSON): either way the file is the problem, said so.
  if (text.trim() === '') throw refuse('is empty');
  const parsed = kind.yaml && /\.ya?ml$/i.test(path) ? parseYaml(text, refuse) : parseJson(text, refuse);
  const data = kind.prepare ? kind.prepare(parsed, refuse, path) : parsed;
  if (kind.schema !== undefined) {
    const schema = typeof kind.schema === 'string' ? kind.schema : kind.schema(data);
    const validate = validator(schema);
    if (!validate(data)) {
      throw refuse(
        `does not match schemas/${schema}.schema.json: ${formatSchemaErrors(validate.errors?.slice(0, 3))}`,
        kind.invalidHint ?? `See schemas/${schema}.schema.json and the README`,
      );
    }
  }
  return data as T;
}
