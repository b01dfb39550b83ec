export const ALLURE_DIR = 'allure-results';
export const COMPARISON_FILE = 'comparison.json';
/** Where a run with --compare-to writes the reports of its --compare-to server. */
export const COMPARE_DIR = 'compare-to';
