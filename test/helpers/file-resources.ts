import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { inProcessRuns, type InProcessRuns } from './in-process-runs.js';
import { removeFolder } from './safety-net.js';

export interface FileResources {
  /** Commands run in this process; their folders are removed first once the file's tests are done. */
  inProcess: InProcessRuns;
  /**
   * Runs this once the file's tests are done (a server's close, a run's cleanup), the last one handed over first:
   * what is started after a server to talk to it is gone before the server closes.
   */
  cleanUpAfterAll(cleanup: () => Promise<unknown>): void;
  /**
   * A new empty folder in the system's temporary folder, its name starting with prefix; it is removed with all it
   * holds once the file's tests are done, in the same order as cleanUpAfterAll.
   */
  tempFolder(prefix: string): Promise<string>;
}

/**
 * What a test file starts and makes, closed and removed by one afterAll that this registers: call it once at the top
 * of the file (or of a describe block, for what only that block uses). The options are those of its in-process runs.
 */
export function fileResources(options?: Parameters<typeof inProcessRuns>[0]): FileResources {
  const inProcess = inProcessRuns(options);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    await inProcess.close();
    // One at a time, and each even when an earlier one failed: nothing stays open for the worker's next file.
    const failures: unknown[] = [];
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw new AggregateError(failures, 'cleaning up after the tests failed');
  });
  const cleanUpAfterAll = (cleanup: () => Promise<unknown>): void => {
    cleanups.push(cleanup);
  };
  return {
    inProcess,
    cleanUpAfterAll,
    async tempFolder(prefix) {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      cleanUpAfterAll(() => removeFolder(dir));
      return dir;
    },
  };
}
