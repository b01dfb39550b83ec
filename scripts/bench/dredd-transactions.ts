import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from '../../src/paths.js';

/** The OpenAPI document in one file: Dredd reads no reference to another file. */
export const DREDD_DOCUMENT = join(schemasDir, 'openapi.bundled.json');

interface Operation {
  summary?: string;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * Dredd's names of the document's successful GET transactions ("path > summary > 200 > media type"): its own ground,
 * one request for each example of a success. The others (401, 404) it would send with the same valid token, and they
 * fail against any conforming server.
 */
export function dreddSuccessTransactions(): string[] {
  const document = JSON.parse(readFileSync(DREDD_DOCUMENT, 'utf8')) as { paths: Record<string, { get?: Operation }> };
  return Object.entries(document.paths).flatMap(([path, { get }]) =>
    Object.keys(get?.responses?.['200']?.content ?? {}).map((type) => `${path} > ${get?.summary ?? ''} > 200 > ${type}`),
  );
}
