import { recordedChoices, recordingOfRun, type RecordingFile } from '../record/recording-file.js';
import type { Recording } from '../record/recording.js';
import type { RequestChoices } from '../record/settings.js';

/** A target of the spec run with what it answered, or why nothing was recorded. */
export interface ProvidedTarget {
  settings: RequestChoices;
  label?: string;
  recording?: Recording;
  failure?: string;
}

/** What the spec worker is handed through Vitest's provide/inject: one spec run's targets and their recordings. */
export interface SpecRunContext {
  /** Tells one spec run from the next, should a worker outlive a run. */
  specRunId: string;
  targets: ProvidedTarget[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: SpecRunContext;
  }
}

/** What a spec run is handed to judge a recording file: each of its runs as a target, named when there are several. */
export function providedTargets(file: RecordingFile): ProvidedTarget[] {
  const settings = recordedChoices(file);
  return file.runs.map((run, index) => ({
    settings,
    recording: recordingOfRun(run),
    ...(file.runs.length > 1 ? { label: `run ${index + 1}` } : {}),
  }));
}
