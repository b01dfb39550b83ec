import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every TypeScript file under the folders, by path relative to root. */
function sourceFiles(root: string, folders: string[]): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) found.push(relative(root, path));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return found;
}

/**
 * What each file imports (static, dynamic and type-only imports alike, as TypeScript's own pre-processor finds them):
 * relative specifiers resolved to files, bare ones (packages) as written.
 */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root, folders)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    graph.set(
      file,
      importedFiles.map(({ fileName }) =>
        fileName.startsWith('.') ? relative(root, resolve(root, dirname(file), fileName)).replace(/\.js$/, '.ts') : fileName,
      ),
    );
  }
  return graph;
}

/** Every file reachable from the start through imports, each with the chain that reaches it. */
export function reachable(graph: Map<string, string[]>, start: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of graph.get(file) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...(chains.get(file) ?? []), next]);
      queue.push(next);
    }
  }
  return chains;
}
