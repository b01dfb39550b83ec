import { prepareOutDir } from '../config/out-dir.js';
import { ConfigError } from '../errors.js';
import { artifactScanner } from '../files/artifacts.js';
import { mergeShards } from '../report/matrix/merge.js';
import type { Matrix } from '../report/matrix/types.js';
import { readResultFile } from '../report/model/read.js';
import { writeMatrix } from '../report/write.js';

/**
 * merge: the output folder checked as a matrix run checks it, the matrix.json of every shard read, merged into the matrix
 * an unsharded run gives, and written by the writer a matrix run writes with.
 */
export async function mergeMatrices(paths: readonly string[], out: string): Promise<{ matrix: Matrix; written: string[] }> {
  await prepareOutDir(out);
  const files = paths.map((path) => {
    const file = readResultFile(path, 'matrix');
    if (file.kind !== 'matrix')
      throw new ConfigError('CONFIG_INVALID', `${path} is a report, not a matrix`, 'Pass the matrix.json of each shard');
    return { path, matrix: file.matrix };
  });
  // The shards' files hold no token to look for; the scan still finds an Authorization value.
  const scanner = artifactScanner([]);
  const matrix = mergeShards(files, out, scanner);
  const written = await writeMatrix(matrix, out, scanner);
  return { matrix, written };
}
