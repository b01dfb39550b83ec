import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';

let fullCollection: (() => void) | undefined;

/**
 * A full garbage collection, without starting Node with --expose-gc (the flag takes effect in a new context).
 * V8 lets its heap grow to several times what is alive before it collects, so a long matrix would peak with the
 * garbage of many batches; collecting keeps the peak at a bounded amount of garbage whatever the fleet.
 */
export function collectGarbage(): void {
  if (!fullCollection) {
    setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
}

/** Garbage the heap may hold above what was alive at the last collection before the next one is forced. */
const HEADROOM_BYTES = 32 * 1024 * 1024;
let aliveAfterLast = 0;

/**
 * A full collection once the heap has grown by the headroom since the last one: the peak stays within the headroom
 * of what is alive, and a collection (a pause of a tenth of a second or more) is not paid after every batch.
 */
export function collectGarbageWhenGrown(): void {
  if (getHeapStatistics().used_heap_size < aliveAfterLast + HEADROOM_BYTES) return;
  collectGarbage();
  aliveAfterLast = getHeapStatistics().used_heap_size;
}

/**
 * Keeps V8's young generation at its starting size for the rest of the process, the judging thread's included. V8 doubles
 * it each time many objects survive a collection, as they do while the modules and the specs load, and the pages it
 * grew into stay resident. The growth factor is read at each growth, so it takes effect when set at run time (the
 * size limits do not).
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for as long as a run reads answers. undici parses HTTP with
 * llhttp compiled to WebAssembly, and after a few answers V8 compiles the parser's one large function again with its
 * optimising compiler, on a background thread: tens of MB resident for a run that reads a few dozen answers. With a
 * budget this large only a long matrix or an exporter gets there, and its parser is then optimised as before. The
 * budget is given to each function as the parser is instantiated, which comes after this; --liftoff-only, read
 * earlier, takes no effect at run time on Node 24.
 */
export function keepWebAssemblyOnBaselineCompiler(): void {
  setFlagsFromString('--wasm-tiering-budget=1000000000');
}

/**
 * Leaves V8's optimising compiler (TurboFan) to the functions a run calls most. Node 20's V8 sends a function there
 * once it has run a fixed amount of bytecode, and over a matrix of a thousand targets about a thousand functions got
 * there, each compiled on a helper thread that shares the cores with ours: about a quarter of the process's CPU went
 * to compiling. With eight times the budget, what records and judges every exchange still gets there, and what runs a
 * few times a target stays on the baseline compiler. The budget is read as each function's feedback is made, so it
 * takes effect when set at run time. Node 22 and later reach Maglev, their middle tier, first: the same delay there,
 * measured on Node 24, gained nothing, and the flag has another name, so they keep V8's own.
 */
export function optimiseOnlyHotFunctions(): void {
  if (process.versions.v8.startsWith('11.')) setFlagsFromString(`--interrupt-budget=${8 * 67_584}`);
}

/** The young generation's largest size on Node 20 (two semi-spaces of 16 MB), where a long run's growth stops. */
const YOUNG_GENERATION_HELD_BYTES = 32 * 1024 * 1024;

/**
 * V8's own growth again (its default factor): over a long matrix, a young generation too small to hold one batch's
 * garbage sends it to the old generation, and the matrix ran measurably slower. It grows up to Node 20's largest:
 * Node 24's V8 would go on to four times that (128 MB in the main thread), which a fleet paid for in memory and in CPU
 * alike. Its largest size is read only at start, its growth factor at each growth: set back to 1 once the young
 * generation is that large, it grows no further. The factor is the whole process's, so on Node 20, whose young
 * generation stops there by itself, it is left alone: the judging thread's, still growing then, would stop short (a
 * fleet with every report took more CPU).
 */
export function letYoungGenerationGrow(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
  if (process.versions.v8.startsWith('11.')) return;
  // Looked at after each of this thread's collections, where V8 grows it; an idle process is never woken for it.
  const watch = new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < YOUNG_GENERATION_HELD_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    watch.disconnect();
  });
  watch.observe({ entryTypes: ['gc'] });
}
