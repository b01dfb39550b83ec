import { expect, test } from 'vitest';
import { run, type RunOptions } from '../src/index.js';

test.each(['help', 'quiet', 'targets', 'compareTo'])('run() refuses the command-line setting %s before sending anything', async (name) => {
  await expect(run({ [name]: true } as RunOptions)).rejects.toThrow(`run(): "${name}" belongs to the command line, not to one run`);
});

test('run() refuses a name that is no option at all', async () => {
  await expect(run({ baseURL: 'http://127.0.0.1:9' } as RunOptions)).rejects.toThrow('run(): unknown option "baseURL"');
});
