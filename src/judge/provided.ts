import { classifyRecording } from '../classify/classify.js';
import type { Classification } from '../classify/types.js';
import { recordedChoices, recordingOfRun, type RecordingFile } from '../record/recording-file.js';
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

/** A recorded target as the spec run is handed it: the recording, and its classification (the stage between). */
export function recordedTarget(settings: RequestChoices, recording: Recording, label?: string): ProvidedTarget {
  return {
    settings,
    recording,
    classification: classifyRecording(recording, settings.statusId),
    ...(label === undefined ? {} : { label }),
  };
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
}

/** What a spec run is handed to judge a recording file: each of its runs as a target, named when there are several. */
export function providedTargets(file: RecordingFile): ProvidedTarget[] {
  const settings = recordedChoices(file);
  return file.runs.map((run, index) =>
    recordedTarget(settings, recordingOfRun(run), file.runs.length > 1 ? `run ${index + 1}` : undefined),
  );
}
