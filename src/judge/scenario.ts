import { test, type TestContext } from 'vitest';
import type { CheckOutcome } from './checks/outcome.js';
import { HarnessError } from '../errors.js';
import { requirement } from '../requirements/catalog.js';
import { currentTarget, targetSlots } from './context.js';
import { variantLabel } from '../exchange/credentials.js';
import type { Exchange } from '../exchange/exchange.js';
import type { JudgedExchange, RecordedCheck, ScenarioResult } from './scenario-result.js';
import type { Target } from '../record/target.js';

class SkipSignal extends Error {
  constructor(
    reason: string,
    readonly exchange?: Exchange,
  ) {
    super(reason);
  }
}

export interface ScenarioContext {
  target: Target;
  /** Records one check of a requirement; the exchange supplies the request and the curl repro. */
  check(requirementId: string, result: CheckOutcome, exchange?: Exchange): boolean;
  /** Records what the target did where the document leaves it open. */
  observe(requirementId: string, description: string, actual: string, exchange?: Exchange): void;
  /** Ends the scenario unjudged; the exchange that shows why is kept with the skip. */
  skip(reason: string, exchange?: Exchange): never;
}

export interface ScenarioDefinition {
  id: string;
  requirements: string[];
  title: string;
  run(context: ScenarioContext): Promise<void>;
}

/** What report.json keeps of an exchange: no parsed body, no timings, the credentials in words. */
function judgedExchange({ request, response }: Exchange): JudgedExchange {
  return {
    request: { method: request.method, url: request.url, credentials: variantLabel(request.credentials), headers: request.headers },
    response: { status: response.status, headers: response.headers, body: response.bodyText, bodyTruncated: response.bodyTruncated },
    repro: request.curl,
  };
}

export function formatFailure(check: RecordedCheck, exchanges: Record<string, JudgedExchange>): string {
  const lines = [`${check.requirement}: ${check.description}`, `  Expected: ${check.expected ?? ''}`, `  Actual:   ${check.actual ?? ''}`];
  const exchange = check.exchange === undefined ? undefined : exchanges[check.exchange];
  if (exchange) lines.push(`  Request:  ${exchange.request.method} ${exchange.request.url}`, `  Repro:    ${exchange.repro}`);
  return lines.join('\n');
}

/** Registers the scenario once per target of the spec run; a batch of several targets names each test after its target. */
export function scenario(definition: ScenarioDefinition): void {
  for (const id of definition.requirements) requirement(id);
  // The requirement IDs are in the name for `vitest -t ID` and are tags for `vitest --tags-filter ID`.
  const name = `${definition.id}: ${definition.title} (${definition.requirements.join(', ')})`;
  for (const slot of targetSlots()) {
    test(slot.label === undefined ? name : `${slot.label} › ${name}`, { tags: definition.requirements }, (vitestContext) =>
      judge(definition, slot.index, vitestContext),
    );
  }
}

async function judge(definition: ScenarioDefinition, targetIndex: number, vitestContext: TestContext): Promise<void> {
  const checks: RecordedCheck[] = [];
  const exchanges: Record<string, JudgedExchange> = {};
  /** The key a check names its exchange by, the exchange kept once for the report. */
  const exchangeDetails = (exchange: Exchange | undefined): Pick<RecordedCheck, 'exchange'> => {
    if (!exchange) return {};
    if (exchange.key === undefined) throw new Error(`scenario ${definition.id} judged an exchange that no Target answered`);
    exchanges[exchange.key] ??= judgedExchange(exchange);
    return { exchange: exchange.key };
  };
  const target = await currentTarget(targetIndex);
  const record = (entry: Omit<RecordedCheck, 'scenario'>): void => {
    if (!definition.requirements.includes(entry.requirement)) {
      throw new Error(`scenario ${definition.id} checks ${entry.requirement} but does not list it in requirements`);
    }
    checks.push({ scenario: definition.id, ...entry });
  };
  const context: ScenarioContext = {
    target,
    check(requirementId, result, exchange) {
      record({
        requirement: requirementId,
        verdict: result.ok ? 'pass' : 'fail',
        description: result.description,
        expected: result.expected,
        actual: result.actual,
        ...exchangeDetails(exchange),
      });
      return result.ok;
    },
    observe(requirementId, description, actual, exchange) {
      record({ requirement: requirementId, verdict: 'info', description, actual, ...exchangeDetails(exchange) });
    },
    skip(reason, exchange) {
      throw new SkipSignal(reason, exchange);
    },
  };

  let skippedBecause: string | undefined;
  let skippedOn: Exchange | undefined;
  try {
    await definition.run(context);
  } catch (error) {
    if (error instanceof SkipSignal) {
      skippedBecause = error.message;
      skippedOn = error.exchange;
    } else {
      const harnessError =
        error instanceof HarnessError
          ? error
          : new HarnessError(
              'HARNESS_INTERNAL',
              `scenario ${definition.id} crashed: ${error instanceof Error ? error.message : String(error)}`,
              'This is a bug in the suite; please report it with the report.json',
              'suite',
            );
      for (const id of definition.requirements) {
        checks.push({
          requirement: id,
          scenario: definition.id,
          verdict: 'error',
          description: harnessError.message,
          error: { code: harnessError.code, message: harnessError.message, hint: harnessError.hint, party: harnessError.party },
        });
      }
    }
  }

  for (const id of definition.requirements) {
    if (!checks.some((check) => check.requirement === id)) {
      checks.push({
        requirement: id,
        scenario: definition.id,
        verdict: 'skip',
        description: skippedBecause ?? 'not judged in this scenario: see its other checks',
        ...(skippedBecause === undefined ? {} : exchangeDetails(skippedOn)),
      });
    }
  }
  const result: ScenarioResult = {
    id: definition.id,
    title: definition.title,
    requirements: definition.requirements,
    checks,
    exchanges,
    requestsSent: target.traffic.sent,
    rateLimited: target.traffic.rateLimited,
    waitedMs: target.traffic.waitedMs,
    tlsCertificates: target.tlsCertificates,
    targetIndex,
  };
  vitestContext.task.meta.conformance = result;

  const failures = checks.filter((check) => check.verdict === 'fail' || check.verdict === 'error');
  if (failures.length > 0) {
    const failure = new Error(
      failures
        .map((check) =>
          check.verdict === 'error' ? `${check.requirement}: ${check.error?.code} ${check.description}` : formatFailure(check, exchanges),
        )
        .join('\n\n'),
    );
    if (failures.every((check) => check.verdict === 'fail')) failure.name = 'AssertionError';
    throw failure;
  }
  if (skippedBecause !== undefined) vitestContext.skip(skippedBecause);
}
