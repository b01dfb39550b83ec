import { classifyRecording } from '../classify/recording.js';
import { providedTarget, type ProvidedTarget } from '../judge/provided.js';
import { recordedChoices, recordingOfRun, type RecordingFile } from '../record/recording-file.js';

/**
 * What plain Vitest's spec run is handed to judge a recording file (npm run specs): each of its runs a target,
 * classified as a pass is before it is judged, and named when there are several.
 */
export function providedTargets(file: RecordingFile): ProvidedTarget[] {
  const settings = recordedChoices(file);
  return file.runs.map((run, index) => {
    const recording = recordingOfRun(run);
    const label = file.runs.length > 1 ? `run ${index + 1}` : undefined;
    return providedTarget(settings, recording, classifyRecording(recording, settings.statusId), label);
  });
}
