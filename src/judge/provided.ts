import type { Classification } from '../classify/types.js';
import type { Recording } from '../record/recording.js';
import type { RequestChoices } from '../record/settings.js';

/** A target of the spec run with what it answered, or why nothing was recorded. */
export interface ProvidedTarget {
  settings: RequestChoices;
  label?: string;
  recording?: Recording;
  /** Every answer of the recording classified, once, before any check reads it. */
  classification?: Classification;
  failure?: string;
}

/**
 * A recorded target as the spec run is handed it: the recording, and its classification (the stage between), unless the
 * judging thread is to classify it.
 */
export function providedTarget(
  settings: RequestChoices,
  recording: Recording,
  classification: Classification | undefined,
  label?: string,
): ProvidedTarget {
  return { settings, recording, ...(classification ? { classification } : {}), ...(label === undefined ? {} : { label }) };
}

/** What the specs are handed: one spec run's targets and their recordings. */
export interface SpecRunContext {
  /** Tells one spec run from the next in a thread that judges batch after batch. */
  specRunId: string;
  targets: ProvidedTarget[];
  /**
   * Whether a broken SHOULD or CLIENT fails its test (CONFORMANCE_STRICT). It matters under plain Vitest, where the
   * tests' states are what the user reads; the CLI's judging thread hands on the results and the gate reads those.
   */
  strict?: boolean;
  /**
   * Whether each scenario is one test that judges every recorded target and slice of the run in turn. The CLI's judging
   * thread asks for it: it reads the results, not the tests, and Vitest's runner spends more on a test than the
   * scenario does on judging one target. Under plain Vitest each target and slice is a test of its own, as users read
   * the tests there.
   */
  testPerScenario?: boolean;
}
