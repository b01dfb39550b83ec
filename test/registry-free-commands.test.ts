import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from './helpers/run-cli.js';

/**
 * A command that names the package to npx or npm exec without --no-install (--no) asks the npm registry for it wherever
 * it is not installed, and runs whatever is published under that name. No page, example or message of the suite may
 * show one.
 */
const FETCHING_COMMAND = /\b(?:npx|npm exec)\s+(?:(?:-y|--yes|--package[= ]\S+)\s+)*(?:--\s+)?ticketing-conformance\b/g;

function filesUnder(folder: string, endings: readonly string[]): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => endings.some((ending) => name.endsWith(ending)))
    .map((name) => join(repoRoot, folder, name));
}

const shown = [
  join(repoRoot, 'README.md'),
  join(repoRoot, 'action.yml'),
  ...filesUnder('docs', ['.md']),
  ...filesUnder('examples', ['.yml', '.yaml', '.sh', '.md']),
  ...filesUnder('src', ['.ts']),
];

test('no page, example or message shows a command that would fetch the package from the registry', () => {
  const found = shown.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(FETCHING_COMMAND)].map((match) => `${relative(repoRoot, file)}: ${match[0]}`),
  );
  expect(found).toEqual([]);
});

test('the pattern finds the forms that fetch and lets the installed ones by', () => {
  const fetching = [
    'npx ticketing-conformance doctor',
    'npx -y ticketing-conformance',
    'npm exec ticketing-conformance',
    'npm exec -- ticketing-conformance',
  ];
  const installed = [
    'npx --no-install ticketing-conformance doctor',
    'npm exec --no -- ticketing-conformance',
    './ticketing-conformance-linux-x64',
  ];
  expect(fetching.filter((command) => command.match(FETCHING_COMMAND) === null)).toEqual([]);
  expect(installed.filter((command) => command.match(FETCHING_COMMAND) !== null)).toEqual([]);
});
