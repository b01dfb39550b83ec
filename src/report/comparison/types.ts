import type { Level } from '../../requirements/types.js';
import type { ExitCode, Report, RunVerdict, Verdict } from '../model/types.js';

/** One of the two servers of a --compare-to run, as its own report judged it. */
export interface ComparedServer {
  baseUrl: string;
  embeddedReference: boolean;
  verdict: RunVerdict;
  exitCode: ExitCode;
  summary: string;
  totals: Report['totals'];
}

export interface VerdictDifference {
  id: string;
  level: Level;
  title: string;
  target: Verdict;
  compareTo: Verdict;
  /** What the first check that did not pass found, on each side where one did not. */
  targetDetail?: string;
  compareToDetail?: string;
}

/**
 * answer: status code and body where either side did not answer 2xx; content-type: the header;
 * extra-fields: fields beyond those the document shows; observation: what an INFO check recorded.
 */
export type ObservationAspect = 'answer' | 'content-type' | 'extra-fields' | 'observation';

export interface ObservationDifference {
  aspect: ObservationAspect;
  /** Requests (method, path and the credentials in words) on which the two servers differed alike. */
  requests: string[];
  /** Requirements whose checks used those requests. */
  requirements: string[];
  target: string;
  compareTo: string;
}

export interface Comparison {
  schemaVersion: 1;
  target: ComparedServer;
  compareTo: ComparedServer;
  /** true when a MUST requirement has a different verdict on the two servers. */
  mustDiffers: boolean;
  exitCode: ExitCode;
  summary: string;
  requirements: VerdictDifference[];
  observations: ObservationDifference[];
}
