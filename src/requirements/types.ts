import type { RequirementId } from './catalog.js';

/**
 * MUST, SHOULD and INFO are the document's; CLIENT is what the vendor's own client needs of an answer, judged only
 * with --profile official-client, and gating the run only with --strict, as a SHOULD does.
 */
export type Level = 'MUST' | 'SHOULD' | 'INFO' | 'CLIENT';

/** The levels whose failure fails the run only under --strict; a broken MUST always does, an INFO never. */
export const STRICT_LEVELS: ReadonlySet<Level> = new Set(['SHOULD', 'CLIENT']);
export type Family = 'envelope' | 'status' | 'lang' | 'auth' | 'selfservice' | 'official-client';

/** A set of extra requirements a run judges only when asked to (--profile). */
export type Profile = 'official-client';
export const PROFILES: readonly Profile[] = ['official-client'];

export interface Requirement {
  id: RequirementId;
  level: Level;
  family: Family;
  title: string;
  /** The words the requirement is judged by, in the single place they live: the document's, or a CLIENT requirement's line of the client. */
  quote: string;
  /** Where the quote stands: a section of the document, or the client's file and line at the version read. */
  section: string;
}

/** A catalog entry's words, which its ID keys. */
export type RequirementText = Omit<Requirement, 'id'>;
