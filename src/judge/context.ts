import type { Classification } from '../classify/types.js';
import { Target } from '../record/target.js';
import type { Profile } from '../requirements/types.js';
import type { RequestChoices } from '../record/settings.js';
import type { SpecRunContext } from './provided.js';

/**
 * The spec run being judged, on globalThis: the judging thread sets it before each run, and under plain Vitest
 * (vitest.specs.config.ts) a setup file does, so every spec file of the run reads the same one.
 */
const SPEC_RUN_KEY = Symbol.for('ticketing-conformance.spec-run');
const TARGETS_KEY = Symbol.for('ticketing-conformance.targets');
type Holder = {
  [SPEC_RUN_KEY]?: SpecRunContext;
  [TARGETS_KEY]?: { specRunId: string; targets: Map<number, Promise<Target>> };
};
const holder = globalThis as Holder;

/** Hands the specs what the next spec run judges. */
export function provideSpecRun(run: SpecRunContext): void {
  holder[SPEC_RUN_KEY] = run;
}

/** Whether the spec run's tests fail on a broken SHOULD or CLIENT, as --strict has the gate. */
export function specRunIsStrict(): boolean {
  return specRun().strict === true;
}

/** Whether each scenario is one test for every target and slice of the spec run, or one test for each. */
export function specRunHasTestPerScenario(): boolean {
  return specRun().testPerScenario === true;
}

function specRun(): SpecRunContext {
  const run = holder[SPEC_RUN_KEY];
  if (!run) throw new Error('no recording was handed to the specs: they judge what the CLI or vitest.specs.config.ts provides');
  return run;
}

export interface TargetSlot {
  index: number;
  label?: string;
  /** The profile the target's run was given, whose scenarios are judged for it alone. */
  profile?: Profile;
  /** The statuses and languages its run asked for, each judged in a slice of its own. */
  choices: Pick<RequestChoices, 'statusId' | 'lang'>;
  /** Whether the target was recorded: a test that judges one that was not fails with why. */
  recorded: boolean;
}

/** The slots of each spec run, made once for every scenario that registers its tests. */
const slotsOf = new WeakMap<SpecRunContext, readonly TargetSlot[]>();

/** The targets this spec run judges: one for a single run, several for a batch of a matrix. */
export function targetSlots(): readonly TargetSlot[] {
  const run = specRun();
  let slots = slotsOf.get(run);
  if (!slots) {
    slots = run.targets.map((target, index) => ({
      index,
      choices: target.settings,
      recorded: target.recording !== undefined,
      ...(target.label === undefined ? {} : { label: target.label }),
      ...(target.settings.profile === undefined ? {} : { profile: target.settings.profile }),
    }));
    slotsOf.set(run, slots);
  }
  return slots;
}

/** One Target per target and spec run, answering from the recording provided to the run, shared by every spec file. */
export function currentTarget(index: number): Promise<Target> {
  const { specRunId, targets: runs } = specRun();
  if (holder[TARGETS_KEY]?.specRunId !== specRunId) holder[TARGETS_KEY] = { specRunId, targets: new Map() };
  const targets = holder[TARGETS_KEY].targets;
  let target = targets.get(index);
  if (!target) {
    const run = runs[index];
    if (!run) throw new Error(`no target ${index} was provided to the spec run`);
    target = run.recording
      ? Promise.resolve(new Target(run.settings, { recording: run.recording }))
      : Promise.reject(new Error(`recording target ${index} failed: ${run.failure ?? 'no recording was provided'}`));
    target.catch(() => undefined);
    targets.set(index, target);
  }
  return target;
}

/** The classification of a target's recording, made before the spec run; none when nothing was recorded. */
export function currentClassification(index: number): Classification | undefined {
  return specRun().targets[index]?.classification;
}
