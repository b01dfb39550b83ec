import type { SecretScanner } from '../secrets/scanner.js';
import { writeArtifacts, type PutOptions } from '../files/artifacts.js';
import type { RunError } from '../errors.js';
import { recordingHar } from './har.js';
import { recordingFile, type RecordingInput } from './recording-file.js';

/** What a run learned from the target, written beside the reports: the suite's own format, and HAR 1.2. */
const RECORDING_FILE = 'recording.json';
const HAR_FILE = 'recording.har';
export const RECORDING_OUTPUTS = [RECORDING_FILE, HAR_FILE];

/**
 * Writes recording.json and recording.har into the folder, each screened like every file the suite writes. A refused
 * file is not written, and its leak error is for the report to show.
 */
export async function writeRecording(
  folder: string,
  input: Omit<RecordingInput, 'redact'>,
  scanner: SecretScanner,
  options: PutOptions = {},
): Promise<{ written: string[]; refused: RunError[] }> {
  if (input.runs.length === 0) return { written: [], refused: [] };
  const file = recordingFile({ ...input, redact: scanner.redact });
  return writeArtifacts(
    folder,
    [
      { name: RECORDING_FILE, content: `${JSON.stringify(file, null, 2)}\n` },
      { name: HAR_FILE, content: `${JSON.stringify(recordingHar(file), null, 2)}\n` },
    ],
    scanner,
    options,
  );
}
