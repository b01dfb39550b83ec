import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemasDir } from '../../src/paths.js';

/** The OpenAPI document in one file: Dredd reads no reference to another file. */
const BUNDLED_DOCUMENT = join(schemasDir, 'openapi.bundled.json');

/** A whole component schema, the only kind of reference Dredd's parser follows. */
const COMPONENT_REFERENCE = /^#\/components\/schemas\/[^/]+$/;

/** The value a local JSON pointer names in the document. */
function pointed(document: unknown, pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], document);
}

/** The value with every reference into a component (a schema's own $defs) replaced by what it names. */
function inlined(value: unknown, document: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => inlined(item, document));
  if (value === null || typeof value !== 'object') return value;
  const reference = (value as { $ref?: unknown }).$ref;
  if (typeof reference === 'string' && reference.startsWith('#/') && !COMPONENT_REFERENCE.test(reference)) {
    return inlined(pointed(document, reference), document);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlined(item, document)]));
}

/**
 * The bundled document as Dredd's parser takes it, written once to a temporary file: the same schemas, with the
 * references into a component's $defs written out in place, since Dredd follows only whole components.
 */
export const DREDD_DOCUMENT = ((): string => {
  const document = JSON.parse(readFileSync(BUNDLED_DOCUMENT, 'utf8')) as unknown;
  const path = join(tmpdir(), `conformance-bench-dredd-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(inlined(document, document)));
  process.once('exit', () => rmSync(path, { force: true }));
  return path;
})();

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
