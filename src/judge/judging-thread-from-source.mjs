// The judging thread's entry when the suite runs from source: Node 20 loads TypeScript only through tsx, and a
// worker's own --import does not reach its entry module, so tsx is registered here before the entry is loaded.
import { register } from 'tsx/esm/api';

register();
await import('./judging-thread.ts');
