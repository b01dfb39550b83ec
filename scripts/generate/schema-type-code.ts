import { compile } from 'json-schema-to-typescript';
import { resolveConfig } from 'prettier';
import { join } from 'node:path';
import { packageRoot, schemasDir } from '../../src/paths.js';
import { schemaJson, type SchemaName } from '../../src/validators/schema-refs.js';

/** The files the suite writes and reads back: their TypeScript types come from their schemas, nowhere else. */
const TYPED_SCHEMAS = ['report', 'recording', 'matrix', 'comparison', 'baseline', 'targets'] as const satisfies readonly SchemaName[];

export const GENERATED_TYPES_DIR = 'src/validators/types';

const generatedTypesFile = (name: SchemaName): string => `${GENERATED_TYPES_DIR}/${name}.generated.ts`;

/** The source of one generated types file, formatted as the repository's Prettier settings format it. */
async function schemaTypesSource(name: SchemaName): Promise<string> {
  const file = join(packageRoot, generatedTypesFile(name));
  const style = (await resolveConfig(file)) ?? {};
  return compile(structuredClone(schemaJson(name)) as Parameters<typeof compile>[0], name, {
    bannerComment: `// Generated from schemas/${name}.schema.json by \`npm run schemas:types\`; a self-test fails when it is out of date. Do not edit.`,
    // Refers to the sibling schemas by file name; never fetches one.
    cwd: schemasDir,
    $refOptions: { resolve: { http: false } },
    // minItems stays a check of the validators: as a tuple type it would make every builder of a list prove it is not empty.
    ignoreMinAndMaxItems: true,
    additionalProperties: false,
    unknownAny: true,
    style: { ...style, parser: 'typescript' },
  });
}

/** Every generated types file, by path relative to the package root. */
export async function schemaTypeSources(): Promise<Map<string, string>> {
  const sources = await Promise.all(TYPED_SCHEMAS.map(async (name) => [generatedTypesFile(name), await schemaTypesSource(name)] as const));
  return new Map(sources);
}
