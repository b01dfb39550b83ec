import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths.js';

export const suiteVersion: string = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** The layout of report.json this suite writes and reads; raised when it changes, and any other is refused, never guessed at. */
export const REPORT_SCHEMA_VERSION = 2;

/** The layout of matrix.json, as REPORT_SCHEMA_VERSION is of report.json. Version 1 had no outcomes. */
export const MATRIX_SCHEMA_VERSION = 2;
