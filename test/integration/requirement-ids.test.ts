import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'requirement-ids');
const CATALOG = join(repoRoot, 'src', 'requirements', 'catalog.ts');
const specFiles = readdirSync(join(repoRoot, 'specs'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.spec.ts'))
  .map((file) => join(repoRoot, 'specs', file));
const fixtures = ['listed-ids.ts', 'unknown-id.ts', 'unlisted-id.ts'].map((file) => join(FIXTURES, file));

/** The language service an editor runs (tsserver's), over the specs and the fixtures, with the project's settings. */
function languageService(): ts.LanguageService {
  const { config } = ts.readConfigFile(join(repoRoot, 'tsconfig.json'), ts.sys.readFile) as { config: unknown };
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repoRoot);
  const files = [...specFiles, ...fixtures];
  return ts.createLanguageService({
    getScriptFileNames: () => files,
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => (ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file) ?? '') : undefined),
    getCurrentDirectory: () => repoRoot,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
}

const service = languageService();

/** The environment of a developer's shell: none of this Vitest run's own settings, no recording chosen. */
const developerEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !name.startsWith('CONFORMANCE_')));
const lineOf = (text: string, position: number): number => text.slice(0, position).split('\n').length;

/** The compiler's errors in a file, as "line N: message", and the lines its "// error: ID" comments mark. */
function compiled(file: string): { errors: string[]; marked: string[] } {
  const text = readFileSync(file, 'utf8');
  const errors = [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)].map(
    (diagnostic) => `line ${lineOf(text, diagnostic.start ?? 0)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
  );
  const marked = text.split('\n').flatMap((line, index) => {
    const id = /\/\/ error: (\S+)$/.exec(line)?.[1];
    return id === undefined ? [] : [`line ${index + 1}: ${id}`];
  });
  return { errors, marked };
}

/** Each marked line has one error, and it names the ID; no other line has one. */
function expectErrorsWhereMarked(file: string): void {
  const { errors, marked } = compiled(file);
  expect(marked.length).toBeGreaterThan(0);
  expect(errors.map((error) => error.split(':')[0])).toEqual(marked.map((mark) => mark.split(':')[0]));
  marked.forEach((mark, index) => {
    const id = mark.split(': ')[1] ?? '';
    expect(errors[index]).toMatch(new RegExp(`['"]${id}['"]`));
  });
}

test('a scenario that checks and observes only the IDs it lists, and passes its context to a helper that needs one of them, compiles', () => {
  expect(compiled(fixtures[0] ?? '').errors).toEqual([]);
});

test('an ID in no catalog entry, listed or checked, fails to compile', () => {
  expectErrorsWhereMarked(fixtures[1] ?? '');
});

test('checking or observing a catalog ID the scenario does not list, directly or through a helper, fails to compile', () => {
  expectErrorsWhereMarked(fixtures[2] ?? '');
});

test('the specs compile as they are', () => {
  for (const file of specFiles) expect(compiled(file).errors, relative(repoRoot, file)).toEqual([]);
});

test('"go to definition" on every ID a spec checks or observes opens that ID\'s entry in the catalog', () => {
  const catalogText = readFileSync(CATALOG, 'utf8');
  let followed = 0;
  for (const file of [...specFiles, fixtures[0] ?? '']) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\b(?:check|observe)\['([A-Z0-9-]+)'\]/g)) {
      const position = (match.index ?? 0) + match[0].indexOf("'") + 1;
      const definitions = service.getDefinitionAtPosition(file, position) ?? [];
      const where = `${relative(repoRoot, file)} line ${lineOf(text, position)}`;
      expect(
        definitions.map((definition) => definition.fileName),
        where,
      ).toEqual([CATALOG]);
      const span = definitions[0]?.textSpan ?? { start: 0, length: 0 };
      expect(catalogText.slice(span.start, span.start + span.length), where).toBe(`'${match[1] ?? ''}'`);
      expect(catalogText.slice(span.start + span.length).startsWith(': {'), where).toBe(true);
      followed += 1;
    }
  }
  // Every spec family judges through check[...] or observe[...]: the scan found them.
  expect(followed).toBeGreaterThan(specFiles.length);
});

test('in plain JavaScript, which no compiler checks, an unlisted ID fails its scenario and an unknown one its spec file, each saying why', async () => {
  const out = await new Promise<{ code: number; text: string }>((done) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(FIXTURES, 'vitest.config.ts')],
      { cwd: repoRoot, env: { ...developerEnv(), NO_COLOR: '1' }, timeout: SAFETY_NET_MS },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, text: stdout + stderr }),
    );
  });
  expect(out.code, out.text).toBe(1);
  expect(out.text).toContain('scenario unlisted-in-javascript checks ENV-NO-BOM but does not list it in requirements');
  expect(out.text).toContain('unknown requirement ENV-JSONN: add it to src/requirements/catalog.ts');
});
