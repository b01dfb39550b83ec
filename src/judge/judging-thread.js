// The entry of the judging thread. Plain JavaScript, so that the thread starts the same way from source and compiled:
// from source it registers the TypeScript loader first, since the spec engine and the specs are TypeScript there.
import { workerData } from 'node:worker_threads';

if (workerData?.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.work);
