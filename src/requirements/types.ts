export type Level = 'MUST' | 'SHOULD' | 'INFO';
export type Family = 'envelope' | 'status' | 'lang' | 'auth' | 'selfservice';

export interface Requirement {
  id: string;
  level: Level;
  family: Family;
  title: string;
  /** The document's own words; the single place this text lives. */
  quote: string;
  /** Where in the document the quote stands. */
  section: string;
}
