import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { ScenarioResult } from './scenario-result.js';
import type { RunError } from '../errors.js';

/** A Vitest reporter that keeps what each scenario recorded, and notes anything that kept a spec from running. */
export class ScenarioCollector implements Reporter {
  scenarios: ScenarioResult[] = [];
  errors: RunError[] = [];

  /** Forgets the previous spec run, when one Vitest instance runs several. */
  reset(): void {
    this.scenarios = [];
    this.errors = [];
  }

  constructor(private readonly onScenario?: (result: ScenarioResult, done: number) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.meta().conformance;
    if (!result) return;
    this.scenarios.push(result);
    this.onScenario?.(result, this.scenarios.length);
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const error of testModule.errors()) {
      this.errors.push({
        code: 'HARNESS_INTERNAL',
        message: `spec ${testModule.relativeModuleId} could not run: ${error.message.split('\n')[0] ?? ''}`,
        hint: 'This is a bug in the suite; please report it with the report.json',
        party: 'suite',
      });
    }
  }

  onTestRunEnd(_modules: readonly TestModule[], unhandledErrors: readonly { message?: string }[]): void {
    for (const error of unhandledErrors) {
      this.errors.push({
        code: 'HARNESS_INTERNAL',
        message: `an error escaped the specs: ${(error.message ?? 'unknown').split('\n')[0] ?? ''}`,
        hint: 'This is a bug in the suite; please report it with the report.json',
        party: 'suite',
      });
    }
  }
}
