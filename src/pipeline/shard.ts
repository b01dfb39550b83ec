import type { Shard } from '../config/values.js';

/**
 * The targets of one shard: every N-th target of the file, starting at the I-th.
 * Deterministic, in file order, and shard sizes differ by one at most.
 */
export function shardOf<T>(targets: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...targets];
  return targets.filter((_, position) => position % shard.count === shard.index - 1);
}
