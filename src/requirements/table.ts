import { catalog } from './catalog.js';

export const TABLE_START = '<!-- requirements:start -->';
export const TABLE_END = '<!-- requirements:end -->';

/** The README's requirement table, rendered from the catalog so the two cannot drift apart. */
export function requirementTable(): string {
  const rows = catalog.map(
    (requirement) => `| ${requirement.id} | ${requirement.level} | ${requirement.family} | ${requirement.title.replaceAll('|', '\\|')} |`,
  );
  return [TABLE_START, '| ID | Level | Family | What is checked |', '|---|---|---|---|', ...rows, TABLE_END].join('\n');
}

export function withRequirementTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} section`);
  return `${readme.slice(0, start)}${requirementTable()}${readme.slice(end + TABLE_END.length)}`;
}
