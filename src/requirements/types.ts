import type { RequirementId } from './catalog.js';

export type Level = 'MUST' | 'SHOULD' | 'INFO';
export type Family = 'envelope' | 'status' | 'lang' | 'auth' | 'selfservice';

export interface Requirement {
  id: RequirementId;
  level: Level;
  family: Family;
  title: string;
  /** The document's own words; the single place this text lives. */
  quote: string;
  /** Where in the document the quote stands. */
  section: string;
}

/** A catalog entry's words, which its ID keys. */
export type RequirementText = Omit<Requirement, 'id'>;
