import { inject } from 'vitest';
import { askRecording } from './recording-channel.js';
import { Target } from './target.js';

const TARGETS_KEY = Symbol.for('ticketing-conformance.targets');
/** The targets of one spec run, told apart by its channel: a worker that judges run after run keeps only the latest. */
type Holder = { [TARGETS_KEY]?: { channel: string; targets: Map<number, Promise<Target>> } };

export interface TargetSlot {
  index: number;
  label?: string;
}

/** The targets this spec run judges: one for a single run, several for a batch of a matrix. */
export function targetSlots(): TargetSlot[] {
  return inject('conformance').targets.map((run, index) => ({ index, ...(run.label === undefined ? {} : { label: run.label }) }));
}

/**
 * One Target per target and spec run, answering from the recording the CLI made; kept on globalThis so every spec
 * file shares it even if modules reload.
 */
export function currentTarget(index: number): Promise<Target> {
  const holder = globalThis as Holder;
  const { targets: runs, channel } = inject('conformance');
  if (holder[TARGETS_KEY]?.channel !== channel) holder[TARGETS_KEY] = { channel, targets: new Map() };
  const { targets } = holder[TARGETS_KEY];
  let target = targets.get(index);
  if (!target) {
    const run = runs[index];
    if (!run) throw new Error(`no target ${index} was provided to the spec run`);
    target = askRecording(channel, index).then((recording) => new Target(run.settings, recording));
    targets.set(index, target);
  }
  return target;
}
