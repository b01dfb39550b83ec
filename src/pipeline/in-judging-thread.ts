import { classifyRecording } from '../classify/recording.js';
import { collectGarbageWhenGrown } from '../judge/memory.js';
import type { ProvidedTarget } from '../judge/provided.js';
import type { ScenarioResult } from '../judge/scenario-result.js';
import { judgeWithin } from '../judge/spec-engine.js';
import type { RunError } from '../errors.js';
import { createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import type { FleetReports, TargetReports, WrittenTarget } from './target-reports.js';

/**
 * The judging thread's entry: each recording is classified here, the spec engine judges each batch from that
 * classification, and a matrix's targets are then diagnosed, built and written here, where their recordings,
 * classifications and scenarios already are, through the functions the main thread would use (target-reports.ts); only
 * each target's row of the matrix and the names of its files cross back. The main thread meanwhile records the next
 * targets.
 */

/** The scanner of the latest fleet, made once from its secrets: a thread serves one matrix at a time. */
let fleetScanner: { id: string; scanner: SecretScanner } | undefined;

function scannerOf({ id, secrets }: FleetReports): SecretScanner {
  if (fleetScanner?.id !== id) fleetScanner = { id, scanner: createSecretScanner(secrets.tokens, secrets.passwords, secrets.clientKeys) };
  return fleetScanner.scanner;
}

/** One target's reports written, or nothing when that failed: the main thread then writes it and hears what failed. */
async function finishTarget(
  order: TargetReports,
  scenarios: ScenarioResult[],
  errors: readonly RunError[],
): Promise<WrittenTarget | undefined> {
  // Loaded with the first matrix: a run's or the exporter's thread never builds a report.
  const { writeTargetReports } = await import('./target-reports.js');
  try {
    return await writeTargetReports(order, { scenarios, errors: [...errors] }, scannerOf(order.fleet));
  } catch {
    return undefined;
  } finally {
    // What the target's reports needed is garbage now: collected once enough has gathered, it never piles up.
    collectGarbageWhenGrown();
  }
}

/** Classify: every answer of a recorded target, once, before any check reads it. */
function classified(target: ProvidedTarget): ProvidedTarget {
  const { recording, classification, settings } = target;
  if (!recording || classification) return target;
  return { ...target, classification: classifyRecording(recording, settings.statusId) };
}

async function finishEach(finish: readonly unknown[], scenarios: ScenarioResult[][], errors: readonly RunError[]): Promise<unknown[]> {
  const finished: (WrittenTarget | undefined)[] = [];
  // One target at a time, as the main thread would: the memory of a batch holds one report being built.
  for (const [index, order] of finish.entries()) {
    finished.push(order === undefined ? undefined : await finishTarget(order as TargetReports, scenarios[index] ?? [], errors));
  }
  return finished;
}

judgeWithin({ classify: classified, finish: finishEach });
