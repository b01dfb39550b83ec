import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const ALLURE_DIR = 'allure-results';
export const COMPARISON_FILE = 'comparison.json';
/** Where a differential run writes the reports of its --compare-to server. */
export const COMPARE_DIR = 'compare-to';
/** The suite's own outputs in --out; nothing else there is touched. */
export const OWN_OUTPUTS = [
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

export async function clearOwnOutputs(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all(OWN_OUTPUTS.map((name) => rm(join(outDir, name), { recursive: true, force: true })));
}
