import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { dereference, validate, type ParserOptions, type ValidationResult } from '@readme/openapi-parser';
import { SCHEMA_BASE } from '../../src/validators/schemas.js';
import { schemasDir } from '../../src/paths.js';

export const OPENAPI_FILE = 'openapi.json';

interface ResolvedFile {
  url: string;
}

/**
 * The JSON Schemas name each other through their $id (https://ticketing-conformance.example/schemas/…), an address
 * that is not served: this resolver reads those from the folder instead, and never goes to the network.
 */
function fromFolder(folder: string): ParserOptions {
  const resolver = {
    order: 1,
    canRead: (file: ResolvedFile): boolean => file.url.startsWith(SCHEMA_BASE) || isAbsolute(file.url),
    read: (file: ResolvedFile): Promise<Buffer> =>
      readFile(file.url.startsWith(SCHEMA_BASE) ? join(folder, file.url.slice(SCHEMA_BASE.length)) : file.url),
  };
  return { resolve: { file: resolver } } as unknown as ParserOptions;
}

export function validateContract(folder = schemasDir): Promise<ValidationResult> {
  return validate(join(folder, OPENAPI_FILE), fromFolder(folder));
}

interface ContractResponse {
  description: string;
  content?: Record<string, { schema: object }>;
}

interface ContractOperation {
  responses: Record<string, ContractResponse>;
}

export interface Contract {
  openapi: string;
  paths: Record<string, { get: ContractOperation }>;
}

/** The contract with every reference replaced by what it points at, as a validating client sees it. */
export async function dereferencedContract(folder = schemasDir): Promise<Contract> {
  return (await dereference(join(folder, OPENAPI_FILE), fromFolder(folder))) as unknown as Contract;
}
