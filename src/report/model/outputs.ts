export const ALLURE_DIR = 'allure-results';
export const COMPARISON_FILE = 'comparison.json';
/** Where a differential run writes the reports of its --compare-to server. */
export const COMPARE_DIR = 'compare-to';
/** What a run learned from the target, written beside the reports: the suite's own format, and HAR 1.2. */
export const RECORDING_FILE = 'recording.json';
export const HAR_FILE = 'recording.har';
export const RECORDING_OUTPUTS = [RECORDING_FILE, HAR_FILE];
/**
 * The list, in each output folder, of the files the suite wrote there. The next run removes those and nothing else:
 * allure-results/ is shared with other tools, and compare-to/ keeps a list of its own.
 */
export const MANIFEST = '.ticketing-conformance-outputs.json';
