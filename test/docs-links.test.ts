import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from './helpers/run-cli.js';

const README = join(repoRoot, 'README.md');
const readme = readFileSync(README, 'utf8');
const docsDir = join(repoRoot, 'docs');
const pages = [
  README,
  ...readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docsDir, name)),
];

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] ?? '')));
}

/** Every Markdown link and image outside code blocks: [text](target). */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

test('the README front page stays short: under 1,500 words', () => {
  const words = readme.split(/\s+/).filter(Boolean).length;
  expect(words).toBeLessThan(1500);
});

test('the front page has what a newcomer needs: the two commands, a deployment, the doctor, CI and exit codes', () => {
  expect(readme).toContain('npm ci && npm run conformance');
  expect(readme).toMatch(/^npm test\b/m);
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  expect(headings).toEqual(expect.arrayContaining(['Two commands', 'Testing a deployment', 'Exit codes', 'CI']));
  expect(headings.some((heading) => heading?.startsWith('The doctor'))).toBe(true);
});

test.each(pages.map((page) => [relative(repoRoot, page), page]))('every link in %s resolves', (_name, page) => {
  const broken: string[] = [];
  for (const link of linksOf(page)) {
    if (/^(https?|mailto):/.test(link)) continue;
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? page : join(dirname(page), decodeURIComponent(path));
    if (!existsSync(target)) {
      broken.push(`${link}: no such file`);
      continue;
    }
    if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
      broken.push(`${link}: no heading #${anchor}`);
    }
  }
  expect(broken).toEqual([]);
});

test('every page of docs/ is reachable from the README', () => {
  const reached = new Set<string>([README]);
  const queue = [README];
  while (queue.length > 0) {
    const page = queue.shift() ?? README;
    for (const link of linksOf(page)) {
      const [path = ''] = link.split('#');
      if (/^(https?|mailto):/.test(link) || !path.endsWith('.md')) continue;
      const target = join(dirname(page), decodeURIComponent(path));
      if (!reached.has(target) && existsSync(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  expect(pages.filter((page) => !reached.has(page)).map((page) => relative(repoRoot, page))).toEqual([]);
});
