import { randomUUID } from 'node:crypto';
import { switchedOn } from '../../src/config/values.js';
import { HarnessError } from '../../src/errors.js';
import { provideSpecRun } from '../../src/judge/context.js';
import { providedTargets } from '../../src/pipeline/provided-recording.js';
import { readRecording } from '../../src/record/recording-file.js';

/** Where plain Vitest finds the recording to judge; vitest.specs.config.ts sets it. */
export const RECORDING_VARIABLE = 'CONFORMANCE_RECORDING';

// A setup file: it runs in Vitest's worker before the spec files, and hands them the recording as the CLI's judging
// thread does. Read afresh for every run, so watch mode judges a changed recording.
const path = process.env[RECORDING_VARIABLE] ?? '';
const recording = await readRecording(path).catch((error: unknown) => {
  // The one line judge gives (its code, then what is wrong) is all a user needs; and Vite's source maps cannot map a
  // stack through modules that came from Vitest's module cache (vitest.specs.config.ts), so the stack is written
  // before anything asks for it.
  if (error instanceof HarnessError) error.name = error.code;
  if (error instanceof Error) error.stack = `${error.name}: ${error.message}`;
  throw error;
});
const STRICT_VARIABLE = { name: 'CONFORMANCE_STRICT', example: 'CONFORMANCE_STRICT=1', tokens: [] };
// CONFORMANCE_STRICT as the CLI reads it: a broken SHOULD or CLIENT then fails its test instead of warning.
provideSpecRun({
  specRunId: randomUUID(),
  targets: providedTargets(recording),
  strict: switchedOn(process.env.CONFORMANCE_STRICT ?? '', STRICT_VARIABLE),
});
