import { inject } from 'vitest';
import { Target } from './target.js';

const TARGETS_KEY = Symbol.for('ticketing-conformance.targets');
type Holder = { [TARGETS_KEY]?: Map<number, Target> };

export interface TargetSlot {
  index: number;
  label?: string;
}

/** The targets this spec run judges: one for a single run, several for a batch of a matrix. */
export function targetSlots(): TargetSlot[] {
  return inject('conformance').map((run, index) => ({ index, ...(run.label === undefined ? {} : { label: run.label }) }));
}

/** One Target per target and worker, kept on globalThis so every spec file shares its answers even if modules reload. */
export function currentTarget(index: number): Target {
  const holder = globalThis as Holder;
  const targets = (holder[TARGETS_KEY] ??= new Map());
  let target = targets.get(index);
  if (!target) {
    const run = inject('conformance')[index];
    if (!run) throw new Error(`no target ${index} was provided to the spec run`);
    target = new Target(run.settings, run.recording);
    targets.set(index, target);
  }
  return target;
}
