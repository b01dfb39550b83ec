import type { FaultParty } from '../errors.js';
import type { JudgedExchange, RecordedCheck } from '../judge/scenario-result.js';

/** A requirement as judged: what a diagnosis reads of a run, the checks with the keys of the answers they were judged on. */
export interface JudgedRequirement {
  id: string;
  verdict: string;
  checks: RecordedCheck[];
}

/** The run's exchanges by key, as report.json holds them; a check names its own by that key. */
export type JudgedExchanges = Record<string, JudgedExchange>;

/** Configuration lines to change, and where they go. */
export interface Snippet {
  label: string;
  lines: string[];
}

export interface Diagnosis {
  id: string;
  party: FaultParty;
  /**
   * The API was never reached (a front answered instead), or the set-up points at nothing (wrong base URL, status id or
   * token): nothing that failed can be laid at the API's door, so the run gives no verdict.
   */
  inconclusive?: boolean;
  confidence: 'high' | 'medium' | 'low';
  summary: string;
  evidence: string;
  advice: string[];
  snippets?: Snippet[];
}
