import type { TestProject } from 'vitest/node';
import { providedTargets } from '../../src/judge/provided.js';
import { readRecording } from '../../src/record/recording-file.js';

/** Where plain Vitest finds the recording to judge; vitest.specs.config.ts sets it. */
export const RECORDING_VARIABLE = 'CONFORMANCE_RECORDING';

/** Hands the recording to the specs (provide/inject, as the CLI does), and again before each rerun in watch mode. */
export default async function provideRecording(project: TestProject): Promise<void> {
  const path = process.env[RECORDING_VARIABLE] ?? '';
  const provide = async (): Promise<void> => {
    const recording = await readRecording(path).catch((error: unknown) => {
      // The one line is all a user needs; and Vite's source maps cannot map a stack through modules that came from
      // Vitest's module cache (vitest.specs.config.ts), so the stack is written before anything asks for it.
      if (error instanceof Error) error.stack = `${error.name}: ${error.message}`;
      throw error;
    });
    project.provide('conformance', { specRunId: `${path} ${Date.now()}`, targets: providedTargets(recording) });
  };
  await provide();
  project.onTestsRerun(provide);
}
