import { inject } from 'vitest';
import { askRecording } from './recording-channel.js';
import { Target } from './target.js';

const TARGETS_KEY = Symbol.for('ticketing-conformance.targets');
type Holder = { [TARGETS_KEY]?: Map<number, Promise<Target>> };

export interface TargetSlot {
  index: number;
  label?: string;
}

/** The targets this spec run judges: one for a single run, several for a batch of a matrix. */
export function targetSlots(): TargetSlot[] {
  return inject('conformance').targets.map((run, index) => ({ index, ...(run.label === undefined ? {} : { label: run.label }) }));
}

/**
 * One Target per target and worker, answering from the recording the CLI made; kept on globalThis so every spec file
 * shares it even if modules reload.
 */
export function currentTarget(index: number): Promise<Target> {
  const holder = globalThis as Holder;
  const targets = (holder[TARGETS_KEY] ??= new Map());
  let target = targets.get(index);
  if (!target) {
    const { targets: runs, channel } = inject('conformance');
    const run = runs[index];
    if (!run) throw new Error(`no target ${index} was provided to the spec run`);
    target = askRecording(channel, index).then((recording) => new Target(run.settings, recording));
    targets.set(index, target);
  }
  return target;
}
