/** Bounds how many tasks run at once; waiting tasks start in the order they asked. */
export class Limiter {
  private active = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private limit: number) {}

  /** Lets more tasks run at once from now on, starting those waiting up to the new limit. */
  widen(limit: number): void {
    if (limit <= this.limit) return;
    this.limit = limit;
    while (this.active < this.limit && this.waiting.size > 0) this.startNext();
  }

  /**
   * Takes a slot, to be given back by release: at once (undefined, nothing to await) when one is free, else once the
   * tasks that asked before are started. Throws, or rejects, with the signal's reason once it is aborted.
   */
  acquire(signal?: AbortSignal): Promise<void> | undefined {
    signal?.throwIfAborted();
    if (this.active < this.limit) {
      this.active += 1;
      return undefined;
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.delete(grant);
        reject(signal?.reason);
      };
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.active += 1;
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(grant);
    });
  }

  release(): void {
    this.active -= 1;
    this.startNext();
  }

  /** Starts the task that has waited longest; its grant counts it as active. */
  private startNext(): void {
    const next = this.waiting.values().next();
    if (!next.done) {
      this.waiting.delete(next.value);
      next.value();
    }
  }
}
