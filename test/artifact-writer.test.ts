import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { artifactScanner, clearOwnOutputs, writeArtifacts, MANIFEST } from '../src/files/artifacts.js';
import { clearedText } from '../src/secrets/scanner.js';
import { escapeHtml } from '../src/report/views/escape/html.js';
import { escapeXml } from '../src/report/views/escape/xml.js';
import { markdownText } from '../src/report/views/escape/markdown.js';
import { ECHO_FORMS } from './helpers/echo-targets.js';
import { fileResources } from './helpers/file-resources.js';
import { repoRoot } from './helpers/run-cli.js';
import { tokenForms } from './helpers/token-forms.js';

/** A token with characters that each escaping rewrites: JSON (/), URL (+ /), HTML and XML (& < " '), Markdown (|). */
const TOKEN = `Wr1ter/Tok+en&<"'|7c2e`;
const { tempFolder } = fileResources();

const folder = (): Promise<string> => tempFolder('artifact-writer-');

/** Every way a file could carry the token: what a target echoes, and what each view's escaper makes of it. */
const FORMS: Record<string, (token: string) => string> = {
  ...ECHO_FORMS,
  'HTML-escaped': escapeHtml,
  'XML-escaped': escapeXml,
  'Markdown-escaped': markdownText,
  'JSON-stringified': (token) => JSON.stringify(token),
  'URL-encoded, upper-case hex': encodeURIComponent,
  'base64 of token:password': (token) => Buffer.from(`${token}:secret`).toString('base64'),
};

test.each(Object.keys(FORMS))(
  'a file holding the token %s is refused with the leak error; the others are written and listed',
  async (form) => {
    const out = await folder();
    const echoed = FORMS[form]?.(TOKEN) ?? '';
    const { written, refused } = await writeArtifacts(
      out,
      [
        { name: 'clean.json', content: '{"ok":true}\n' },
        { name: 'leaky.html', content: `<p>user ${echoed} seen</p>` },
        { name: 'nested/leaky.bin', content: Buffer.from(`user ${echoed} seen`) },
        { name: 'nested/clean.txt', content: 'nothing secret' },
      ],
      artifactScanner([TOKEN]),
    );
    expect(refused.map((error) => [error.code, error.message])).toEqual([
      ['HARNESS_SECRET_LEAK', 'leaky.html would have contained the API token, so it was not written'],
      ['HARNESS_SECRET_LEAK', 'nested/leaky.bin would have contained the API token, so it was not written'],
    ]);
    expect(written.map((path) => relative(out, path))).toEqual(['clean.json', join('nested', 'clean.txt')]);
    expect((await readdir(out)).sort()).toEqual([MANIFEST, 'clean.json', 'nested']);
    expect(await readdir(join(out, 'nested'))).toEqual(['clean.txt']);
    const manifest = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files: string[]; folders: string[] };
    expect(manifest).toEqual({ files: ['clean.json', 'nested/clean.txt'], folders: ['nested'] });
  },
);

test('a command that knows no token still refuses an Authorization value, and the next run removes only what was listed', async () => {
  const out = await folder();
  const credential = Buffer.from('someone:else').toString('base64');
  const first = await writeArtifacts(
    out,
    [
      { name: 'page.html', content: `<pre>Authorization: Basic ${credential}</pre>` },
      { name: 'kept.md', content: '# fine' },
    ],
    artifactScanner([]),
  );
  expect(first.refused.map((error) => error.message)).toEqual([
    'page.html would have contained an Authorization value, so it was not written',
  ]);
  const unlisted = await writeArtifacts(out, [{ name: 'history.html', content: '<p>history</p>' }], artifactScanner([]), { listed: false });
  expect(unlisted.refused).toEqual([]);
  await clearOwnOutputs(out);
  expect(await readdir(out)).toEqual(['history.html']);
});

test('one scan finds any of several tokens in a file: a matrix knows every target’s, --compare-to both servers’', async () => {
  const others = ['matrix-target-b-5e1f0a', 'compare-side-token-77ab1c'];
  const scanner = artifactScanner([TOKEN, ...others]);
  for (const token of [TOKEN, ...others]) {
    for (const form of tokenForms(token)) expect({ form, found: scanner.find(`x ${form} y`) }).toEqual({ form, found: 'the API token' });
  }
  expect(scanner.find('a report with nothing secret in it')).toBeUndefined();
});

test('a text cleared by one scanner is written without a second read, and read again by a scanner knowing other secrets', async () => {
  const out = await folder();
  const text = `{"echo":"${TOKEN}"}`;
  const notKnowing = artifactScanner(['another-token-5e1f0a9c']);
  const cleared = clearedText(text, notKnowing);
  if (!('text' in cleared)) throw new Error('a scanner not knowing the token found it');
  const same = await writeArtifacts(out, [{ name: 'report.json', content: cleared }], notKnowing);
  expect({ refused: same.refused, onDisk: await readFile(join(out, 'report.json'), 'utf8') }).toEqual({ refused: [], onDisk: text });
  const knowing = await writeArtifacts(out, [{ name: 'other.json', content: cleared }], artifactScanner([TOKEN]));
  expect(knowing.refused.map((error) => error.message)).toEqual(['other.json would have contained the API token, so it was not written']);
  expect(clearedText(text, artifactScanner([TOKEN]))).toEqual({ secret: 'the API token' });
});

test('a folder the command makes is written and listed whole, each file only created: never through a link or over a file', async () => {
  const out = join(await folder(), 'targets', 'new');
  const files = [
    { name: 'report.json', content: '{"ok":true}\n' },
    { name: 'nested/deeper/page.html', content: '<p>fine</p>' },
    { name: 'nested/badge.svg', content: Buffer.from('<svg/>') },
  ];
  const { written, refused } = await writeArtifacts(out, files, artifactScanner([TOKEN]), { newFolder: true });
  expect({ refused, written: written.map((path) => relative(out, path)) }).toEqual({
    refused: [],
    written: ['report.json', join('nested', 'deeper', 'page.html'), join('nested', 'badge.svg')],
  });
  expect(await readFile(join(out, 'nested', 'badge.svg'), 'utf8')).toBe('<svg/>');
  // A second put into the folder it made (a run's reports after its recording) keeps the first one's files listed.
  await writeArtifacts(out, [{ name: 'later.md', content: '# later' }], artifactScanner([TOKEN]), { newFolder: true });
  const manifest = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files: string[]; folders: string[] };
  expect(manifest).toEqual({ files: [...files.map(({ name }) => name), 'later.md'], folders: ['nested', 'nested/deeper'] });
  await clearOwnOutputs(out);
  expect(await readdir(out)).toEqual([]);

  // A folder wrongly taken for new: what is already there is neither followed nor replaced, and the writing fails.
  const elsewhere = join(await folder(), 'elsewhere.json');
  await writeFile(elsewhere, 'theirs');
  const planted = await folder();
  await symlink(elsewhere, join(planted, 'report.json'));
  await expect(writeArtifacts(planted, files.slice(0, 1), artifactScanner([]), { newFolder: true })).rejects.toThrow(/EEXIST/);
  await mkdir(join(planted, 'other'));
  await writeFile(join(planted, 'other', 'report.json'), 'theirs');
  await expect(writeArtifacts(join(planted, 'other'), files.slice(0, 1), artifactScanner([]), { newFolder: true })).rejects.toThrow(
    /EEXIST/,
  );
  expect([await readFile(elsewhere, 'utf8'), await readFile(join(planted, 'other', 'report.json'), 'utf8')]).toEqual(['theirs', 'theirs']);
});

// Names of Node's calls that put bytes in a file; a module that imports or calls one writes files.
const FILE_WRITES = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'writeSync',
  'writev',
  'writevSync',
  'FileSystemWriter',
];
const FILE_WRITE = new RegExp(`\\b(?:${FILE_WRITES.join('|')})\\b`, 'g');
/** The one writer, and the output-folder check, which writes an empty file and removes it to learn the folder takes files. */
const ALLOWED: Record<string, string[]> = { 'src/files/artifacts.ts': FILE_WRITES, 'src/config/out-dir.ts': ['writeFile'] };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The file-writing calls a source text names, comments left out. */
function fileWritesIn(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return [...new Set([...code.matchAll(FILE_WRITE)].map((match) => match[0]))];
}

test('the check finds a file write however it is spelled in code, and not in a comment', () => {
  expect(fileWritesIn("import { writeFileSync } from 'node:fs';\nwriteFileSync(p, t);")).toEqual(['writeFileSync']);
  expect(fileWritesIn("import * as fs from 'node:fs';\nfs.promises.appendFile(p, t);")).toEqual(['appendFile']);
  expect(fileWritesIn('const s = createWriteStream(p); new FileSystemWriter({ resultsDir: d });')).toEqual([
    'createWriteStream',
    'FileSystemWriter',
  ]);
  expect(fileWritesIn('// writeFile is not called here\n/* nor appendFile */ const x = 1;')).toEqual([]);
});

test('no module under src/ but the artifact writer puts a file on disk (the output-folder probe aside)', () => {
  const offences = sourceFiles(join(repoRoot, 'src')).flatMap((path) => {
    const file = relative(repoRoot, path).split('\\').join('/');
    const allowed = ALLOWED[file] ?? [];
    return fileWritesIn(readFileSync(path, 'utf8'))
      .filter((name) => !allowed.includes(name))
      .map((name) => `${file}: ${name}`);
  });
  expect(offences).toEqual([]);
  // The probe is empty and removed again: it writes nothing a secret could be in.
  const probe = readFileSync(join(repoRoot, 'src/config/out-dir.ts'), 'utf8');
  expect(probe).toMatch(/await writeFile\(probe, ''\);/);
  expect(probe).toMatch(/await rm\(probe, \{ force: true \}\);/);
});
