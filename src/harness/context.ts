import { inject } from 'vitest';
import { prefetch } from './plan.js';
import { Target } from './target.js';

const TARGET_KEY = Symbol.for('ticketing-conformance.target');
type Holder = { [TARGET_KEY]?: Target };

/** One Target per worker, kept on globalThis so every spec file shares its requests even if modules reload. */
export function currentTarget(): Target {
  const holder = globalThis as Holder;
  let target = holder[TARGET_KEY];
  if (!target) {
    target = new Target(inject('conformance'));
    holder[TARGET_KEY] = target;
    prefetch(target);
  }
  return target;
}
