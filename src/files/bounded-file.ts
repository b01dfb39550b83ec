import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { jsonShape, MAX_JSON_DEPTH } from '../exchange/body-text.js';
import { headersBeyondBounds } from '../exchange/header-bounds.js';
import { systemReason, type HarnessError } from '../errors.js';

/** The most the suite reads of any file it is given: far more than any file a run writes, recording.json included. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** A recording holds answers parsed up to MAX_JSON_DEPTH deep, inside a few levels of its own. */
export const MAX_FILE_JSON_DEPTH = 2 * MAX_JSON_DEPTH;

/**
 * Memory follows values, not bytes. Well above what a run writes: a recording of the most --repeat runs, each run's
 * answers within their budget of parsed values, or the matrix.json of a fleet of ten thousand targets.
 */
export const MAX_FILE_JSON_VALUES = 2_000_000;

/** The error a caller raises for its file, given why it was refused (said after the file's path) and, maybe, the fix. */
export type Refusal = (reason: string, hint?: string) => HarnessError;

const CHUNK_BYTES = 1024 * 1024;
const TOO_LARGE = `is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MiB, more than any file a run writes`;

function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'is a folder, not a file';
  if (stats.isFIFO()) return 'is a named pipe, not a regular file';
  if (stats.isSocket()) return 'is a socket, not a regular file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'is a device, not a regular file';
  return 'is not a regular file';
}

function checkedFile(stats: Stats, refuse: Refusal): void {
  const refused = notRegular(stats);
  if (refused !== undefined) throw refuse(refused);
  if (stats.size > MAX_FILE_BYTES) throw refuse(TOO_LARGE);
}

const unreadable = (refuse: Refusal, error: unknown): HarnessError => refuse(`could not be read: ${systemReason(error)}`);

/**
 * The text of a regular file of at most MAX_FILE_BYTES. A pipe, a device or a folder is refused before it is opened:
 * a FIFO would block for ever, /dev/zero never ends.
 */
export function readBoundedText(path: string, refuse: Refusal): string {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw unreadable(refuse, error);
  }
  checkedFile(stats, refuse);
  let fd: number;
  try {
    // Without blocking, and checked again once open: the path may have become a FIFO since.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw unreadable(refuse, error);
  }
  try {
    checkedFile(fstatSync(fd), refuse);
    const chunks: Buffer[] = [];
    let total = 0;
    for (let read = -1; read !== 0;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      total += read;
      // The file may have grown since it was measured.
      if (total > MAX_FILE_BYTES) throw refuse(TOO_LARGE);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks the shape of a file's JSON text before it is parsed: nothing that walks it may exhaust the stack, and
 * parsing it may not take more memory than a file a run writes.
 */
export function checkJsonShape(text: string, refuse: Refusal): void {
  const shape = jsonShape(text);
  if (shape.depth > MAX_FILE_JSON_DEPTH) {
    throw refuse(`is nested more than ${MAX_FILE_JSON_DEPTH} levels deep, deeper than any file a run writes`);
  }
  if (shape.values > MAX_FILE_JSON_VALUES) {
    throw refuse(`holds more than ${MAX_FILE_JSON_VALUES} JSON values, more than any file a run writes`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Refuses a file holding an exchange whose request or answer headers are past the bounds the client reads an answer
 * within, before anything else reads them: no file a run writes holds one, and judging one costs what no run does.
 */
export function checkExchangeHeaders(exchanges: unknown[], refuse: Refusal): void {
  for (const exchange of exchanges) {
    if (!isObject(exchange)) continue;
    for (const part of [exchange.request, exchange.response]) {
      const beyond = isObject(part) && isObject(part.headers) ? headersBeyondBounds(part.headers) : undefined;
      if (beyond !== undefined) throw refuse(`holds an exchange whose headers ${beyond}`);
    }
  }
}
