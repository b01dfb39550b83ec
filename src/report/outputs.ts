import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const ALLURE_DIR = 'allure-results';
export const COMPARISON_FILE = 'comparison.json';
/** Where a differential run writes the reports of its --compare-to server. */
export const COMPARE_DIR = 'compare-to';
/** What a run learned from the target, written beside the reports: the suite's own format, and HAR 1.2. */
export const RECORDING_FILE = 'recording.json';
export const HAR_FILE = 'recording.har';
export const RECORDING_OUTPUTS = [RECORDING_FILE, HAR_FILE];
/** The reports themselves: what judging a recording again replaces. */
export const REPORT_OUTPUTS = [
  'report.json',
  'report.md',
  'report.html',
  'junit.xml',
  'ctrf.json',
  'badge.svg',
  ALLURE_DIR,
  COMPARISON_FILE,
  COMPARE_DIR,
];
/** The suite's own outputs in --out; nothing else there is touched. */
export const OWN_OUTPUTS = [...REPORT_OUTPUTS, ...RECORDING_OUTPUTS];

export async function clearOwnOutputs(outDir: string, names: readonly string[] = OWN_OUTPUTS): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all(names.map((name) => rm(join(outDir, name), { recursive: true, force: true })));
}
