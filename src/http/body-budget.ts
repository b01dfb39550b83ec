import { MAX_JSON_VALUES, type ValueAllowance } from '../exchange/body-text.js';

/** What each answer may hold freely: far more than any answer of this API needs. */
export const BODY_ALLOWANCE_BYTES = 256 * 1024;
/** Shared by one target's answers beyond their allowance, at once. */
export const SHARED_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The memory one target's answers may take beyond a small allowance each. A target that answers every request
 * with a huge body then costs the shared bytes, not the cap times the concurrency; and once one of its answers has
 * been cut for its size, the others get the allowance alone (a cut decompression leaves its bytes behind until the
 * next garbage collection). An API that answers small, as this one does, never meets the budget.
 */
export class BodyBudget {
  private held = 0;
  private cutOnce = false;

  constructor(
    private readonly cap: number,
    private readonly allowance = Math.min(cap, BODY_ALLOWANCE_BYTES),
    private readonly shared = SHARED_BODY_BYTES,
  ) {}

  /** The most bytes a body may have now, given the shared bytes it already holds (none for a body not yet read). */
  limit(reserved = 0): number {
    return this.cutOnce ? this.allowance + reserved : Math.min(this.cap, this.allowance + this.shared - this.held + reserved);
  }

  /**
   * Tells the budget a body being read has grown to `size` bytes, `reserved` of them already taken from the shared bytes;
   * returns the bytes it now holds from them, or undefined when the body may not grow that far.
   */
  grow(size: number, reserved: number): number | undefined {
    const needed = Math.max(0, size - this.allowance);
    if (size > this.cap || (needed > reserved && (this.cutOnce || this.held + needed - reserved > this.shared))) return undefined;
    this.held += needed - reserved;
    return needed;
  }

  release(reserved: number): void {
    this.held -= reserved;
  }

  /** Remembers that an answer of this target was cut for its size. */
  cut(): void {
    this.cutOnce = true;
  }
}

/** Parsed values one target's answers may hold together: a few answers at the per-answer limit, then no more. */
export const TARGET_JSON_VALUES = 60_000;

/**
 * Memory that parsed answers take follows their number of values, not their bytes: each answer may hold up to
 * MAX_JSON_VALUES, and one target's answers together up to TARGET_JSON_VALUES.
 */
export class JsonValueBudget implements ValueAllowance {
  private spent = 0;

  constructor(
    private readonly perAnswer = MAX_JSON_VALUES,
    private readonly total = TARGET_JSON_VALUES,
  ) {}

  /** The most values the next answer may hold. */
  allowance(): number {
    return Math.max(0, Math.min(this.perAnswer, this.total - this.spent));
  }

  spend(values: number): void {
    this.spent += values;
  }
}
