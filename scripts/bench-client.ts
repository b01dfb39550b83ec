import { HttpClient } from '../src/harness/http-client.js';

/**
 * The child that bench-hostile.ts measures for the client alone: as many requests as a full run sends, all at once,
 * through the suite's HTTP client with its default limits. Imports nothing else, so its memory is the client's.
 */
const [baseUrl, token] = process.argv.slice(2);
if (!baseUrl || !token) throw new Error('usage: bench-client.ts BASE_URL TOKEN');
const client = new HttpClient({
  baseUrl,
  token,
  password: 'x',
  timeoutMs: 10_000,
  maxBodyBytes: 1024 * 1024,
  maxRequests: 40,
  userAgent: 'bench',
  concurrency: 4,
});
const requests = Array.from({ length: 17 }, (_unused, index) =>
  client.get({ path: `/api/ticket/status/${index + 1}`, credentials: 'valid' }),
);
await Promise.allSettled(requests);
await client.close();
