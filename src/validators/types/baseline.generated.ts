// Generated from schemas/baseline.schema.json by `npm run schemas:types`; a self-test fails when it is out of date. Do not edit.

/**
 * Known failures (--baseline FILE): each waives one requirement's failure until its expiry date, for every target or for one target of a matrix. Written by `ticketing-conformance baseline`.
 */
export interface TicketingConformanceBaseline {
  schemaVersion: 1;
  knownFailures: KnownFailure[];
}
export interface KnownFailure {
  requirement: string;
  /**
   * name of a target of the targets file; without it the entry applies to every target
   */
  target?: string;
  reason: string;
  owner: string;
  /**
   * YYYY-MM-DD: the failure is waived through this day (UTC) and fails the run after it
   */
  expires: string;
}
