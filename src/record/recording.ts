import type { RunError } from '../errors.js';
import type { Exchange } from '../exchange/exchange.js';
import type { TrafficCounts } from '../exchange/exchange.js';

/** Why a request got no answer, as plain data that can cross from the CLI to the judging thread. */
export type RecordedFailure = RunError;

export type RecordedAnswer = { exchange: Exchange } | { failure: RecordedFailure };

/**
 * Every answer a target gave during the prefetch, keyed like the Target's memo.
 * The CLI records it while Vitest starts, and the specs judge from it without waiting on the network.
 */
export interface Recording {
  traffic: TrafficCounts;
  tlsCertificates: string[];
  answers: Record<string, RecordedAnswer>;
}
