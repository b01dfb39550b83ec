import type { SecretScanner } from '../../secrets/scanner.js';
import { dirname, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../../errors.js';
import { buildMatrix } from './build.js';
import type { Matrix } from './types.js';

export interface ShardFile {
  path: string;
  matrix: Matrix;
}

function shardsAgree(files: ShardFile[]): { count: number; targetsInFile: number } {
  const first = files[0]?.matrix.shard;
  const unsharded = files.find((file) => !file.matrix.shard);
  if (!first || unsharded) {
    throw new ConfigError(
      'CONFIG_INVALID',
      `${unsharded?.path ?? 'the first file'} is not a shard`,
      'Merge the matrix.json of runs made with --shard I/N',
    );
  }
  for (const { path, matrix } of files) {
    const shard = matrix.shard;
    if (shard?.count !== first.count || shard.targetsInFile !== first.targetsInFile) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `${path} is a shard of another split (${shard?.index}/${shard?.count} of ${shard?.targetsInFile} targets)`,
        'Merge shards of one targets file split one way',
      );
    }
    if (matrix.suite.version !== files[0]?.matrix.suite.version) {
      throw new ConfigError(
        'CONFIG_INVALID',
        `${path} was made by suite version ${matrix.suite.version}, the others by ${files[0]?.matrix.suite.version}`,
        'Run every shard with the same suite version',
      );
    }
  }
  const indexes = files.map((file) => file.matrix.shard?.index ?? 0);
  const missing = Array.from({ length: first.count }, (_, index) => index + 1).filter((index) => !indexes.includes(index));
  const twice = indexes.filter((index, position) => indexes.indexOf(index) !== position);
  if (missing.length > 0 || twice.length > 0) {
    const problem =
      missing.length > 0 ? `shard(s) ${missing.join(', ')} of ${first.count} missing` : `shard(s) ${twice.join(', ')} given twice`;
    throw new ConfigError(
      'CONFIG_INVALID',
      `cannot merge: ${problem}`,
      `Pass the matrix.json of every shard 1/${first.count} to ${first.count}/${first.count}, once each`,
    );
  }
  return first;
}

/** Combines the matrices of every shard of a targets file into the one matrix an unsharded run would give. */
export function mergeShards(files: ShardFile[], outDir: string, scanner: SecretScanner): Matrix {
  if (files.length === 0) throw new ConfigError('CONFIG_INVALID', 'no shard to merge', 'Pass the matrix.json of every shard');
  shardsAgree(files);
  const targets = files.flatMap(({ path, matrix }) =>
    matrix.targets.map((target) => ({
      ...target,
      // Each target's reports stay where the shard wrote them; point at them from the merged matrix.
      reportDir: relative(outDir, resolve(dirname(path), target.reportDir))
        .split(sep)
        .join('/'),
    })),
  );
  const starts = files.map((file) => Date.parse(file.matrix.startedAt));
  const ends = files.map((file) => Date.parse(file.matrix.finishedAt));
  return buildMatrix(
    {
      suite: files[0]?.matrix.suite ?? { name: 'ticketing-conformance', version: '' },
      startedAt: new Date(Math.min(...starts)).toISOString(),
      finishedAt: new Date(Math.max(...ends)).toISOString(),
      durationMs: Math.max(...ends) - Math.min(...starts),
      targetConcurrency: Math.max(...files.map((file) => file.matrix.targetConcurrency)),
      mergedShards: files.length,
      targets,
      errors: files.flatMap((file) => file.matrix.errors),
    },
    scanner,
  );
}
