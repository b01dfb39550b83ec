import { variants } from '../../src/reference-server/faults.js';
import { catalog } from '../../src/requirements/catalog.js';

const cell = (text: string): string => text.replaceAll('|', '\\|');

/** Documentation sections rendered from code, so the pages and the code cannot drift apart. */
const sections = {
  requirements: () => [
    '| ID | Level | Family | What is checked |',
    '|---|---|---|---|',
    ...catalog.map((requirement) => `| ${requirement.id} | ${requirement.level} | ${requirement.family} | ${cell(requirement.title)} |`),
  ],
  faults: () => [
    '| Fault | Kind | What the server does |',
    '|---|---|---|',
    ...variants
      .filter((variant) => variant.kind !== 'quirk')
      .map((variant) => `| \`${variant.name}\` | ${variant.kind} | ${cell(variant.summary)} |`),
  ],
  quirks: () => [
    '| Variation | What the server does |',
    '|---|---|',
    ...variants.filter((variant) => variant.kind === 'quirk').map((variant) => `| \`${variant.name}\` | ${cell(variant.summary)} |`),
  ],
} satisfies Record<string, () => string[]>;

/** The page (relative to the package root) that holds each generated section. */
export const GENERATED_PAGES: Record<string, (keyof typeof sections)[]> = {
  'docs/requirements.md': ['requirements'],
  'docs/development.md': ['faults', 'quirks'],
};

/** The page with its generated sections rewritten; `page` is a key of GENERATED_PAGES. */
export function withGeneratedSections(page: string, text: string): string {
  return (GENERATED_PAGES[page] ?? []).reduce((current, name) => {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = current.indexOf(start);
    const to = current.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${page} has no ${start} … ${end} section`);
    return `${current.slice(0, from)}${[start, ...sections[name](), end].join('\n')}${current.slice(to + end.length)}`;
  }, text);
}
