import { catalog } from './catalog.js';

/** Each requirement as a Vitest tag, so `vitest --tags-filter ID` runs the scenarios that judge it. */
export const requirementTags = catalog.map((requirement) => ({
  name: requirement.id,
  description: `${requirement.level}: ${requirement.title}`,
}));
