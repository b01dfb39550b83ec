import { afterAll, describe, expect, test } from 'vitest';
import { variants } from '../src/reference-server/faults.js';
import { startReferenceServer, type ReferenceServerOptions } from '../src/reference-server/server.js';
import { runCli } from './helpers/run-cli.js';

const TOKEN = 'quirk-token-7d2e41';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

async function expectConformant(options: Omit<ReferenceServerOptions, 'token'>, baseUrl?: (url: string) => string): Promise<void> {
  const server = await startReferenceServer({ token: TOKEN, ...options });
  cleanups.push(server.close);
  const run = await runCli(['--base-url', baseUrl ? baseUrl(server.url) : server.url, '--token', TOKEN]);
  cleanups.push(run.cleanup);
  const notPassing = (run.report?.requirements ?? [])
    .filter((result) => !['pass', 'info'].includes(result.verdict))
    .map((result) => `${result.id}: ${result.verdict}`);
  expect(notPassing).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
}

describe('unusual but conformant servers pass', () => {
  const quirks = variants.filter((variant) => variant.kind === 'quirk');
  test.concurrent.each(quirks.map((quirk) => [quirk.name]))('%s', (name) => expectConformant({ variants: [name] }));

  test.concurrent('all quirks at once', () =>
    expectConformant({ variants: quirks.map((quirk) => quirk.name).filter((name) => name !== 'gzip' && name !== 'deflate') }),
  );
  test.concurrent('IPv6 loopback', () => expectConformant({ host: '::1' }));
  test.concurrent('a base URL with a path prefix and a trailing slash', () =>
    expectConformant({ pathPrefix: '/support' }, (url) => `${url}/`),
  );
  test.concurrent('a base URL with a path prefix and no trailing slash', () => expectConformant({ pathPrefix: '/support' }));
});
