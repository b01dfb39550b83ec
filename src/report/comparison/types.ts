import type * as ComparisonFile from '../../validators/types/comparison.generated.js';

/** One of the two servers of a --compare-to run, as its own report judged it. */
export type ComparedServer = ComparisonFile.Server;

export type VerdictDifference = ComparisonFile.VerdictDifference;

/**
 * answer: status code and body where either side did not answer 2xx; content-type: the header;
 * extra-fields: fields beyond those the document shows; observation: what an INFO check recorded.
 */
export type ObservationAspect = ObservationDifference['aspect'];

export type ObservationDifference = ComparisonFile.ObservationDifference;

export type Comparison = ComparisonFile.TicketingConformanceComparison;
