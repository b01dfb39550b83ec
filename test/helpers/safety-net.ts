import { rm } from 'node:fs/promises';

/**
 * The most any one wait of a self-test may last (a child process, a server's start, a poll, a batch of runs): a bound
 * against a hang, never a measure of speed, sized for a machine ten times slower than a quiet one. A wait that ends
 * normally ends long before it, so raising it costs nothing.
 */
export const SAFETY_NET_MS = 300_000;

/** A test's or a hook's bound: above any one wait it makes, so that the wait's own message is what reports a hang. */
export const TEST_SAFETY_NET_MS = 2 * SAFETY_NET_MS;

/**
 * Removes a folder and all it holds, retrying while the file system still says it is busy or not empty: a process
 * the test ended, or a write still settling, may add to it for a moment after the test is done with it.
 */
export function removeFolder(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
