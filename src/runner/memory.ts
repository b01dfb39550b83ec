import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let fullCollection: (() => void) | undefined;

/**
 * A full garbage collection, without starting Node with --expose-gc (the flag takes effect in a new context).
 * V8 lets its heap grow to several times what is alive before it collects, so a long matrix would peak with the
 * garbage of many batches; collecting after each batch keeps the peak at one batch's worth whatever the fleet.
 */
export function collectGarbage(): void {
  if (!fullCollection) {
    setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
}
