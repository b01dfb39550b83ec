import type { SecretScanner } from '../secrets/scanner.js';
import { screenArtifacts, type Screening } from '../files/artifacts.js';
import { recordingHar } from './har.js';
import { recordingFile, type RecordingInput } from './recording-file.js';

/** What a run learned from the target, written beside the reports: the suite's own format, and HAR 1.2. */
const RECORDING_FILE = 'recording.json';
const HAR_FILE = 'recording.har';
export const RECORDING_OUTPUTS = [RECORDING_FILE, HAR_FILE];

/**
 * recording.json and recording.har, each screened like every file the suite writes, for the writer to put beside the
 * reports in one go. A refused file is left out, and its leak error is for the report to show.
 */
export function screenedRecording(input: Omit<RecordingInput, 'redact'>, scanner: SecretScanner): Screening {
  if (input.runs.length === 0) return { passed: [], refused: [] };
  const file = recordingFile({ ...input, redact: scanner.redact });
  return screenArtifacts(
    [
      { name: RECORDING_FILE, content: `${JSON.stringify(file, null, 2)}\n` },
      { name: HAR_FILE, content: `${JSON.stringify(recordingHar(file), null, 2)}\n` },
    ],
    scanner,
  );
}
