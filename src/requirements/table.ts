import { variants } from '../reference-server/faults.js';
import { catalog } from './catalog.js';

const cell = (text: string): string => text.replaceAll('|', '\\|');

/** README sections rendered from code, so the document and the code cannot drift apart. */
const sections: Record<string, () => string[]> = {
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
};

export function withGeneratedSections(readme: string): string {
  return Object.entries(sections).reduce((text, [name, render]) => {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md has no ${start} … ${end} section`);
    return `${text.slice(0, from)}${[start, ...render(), end].join('\n')}${text.slice(to + end.length)}`;
  }, readme);
}
