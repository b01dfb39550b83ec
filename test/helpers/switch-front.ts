import { request, type IncomingHttpHeaders } from 'node:http';
import { serveHttp, type LoopbackServer } from './loopback-server.js';

/** A loopback front that passes every request on to the upstream of the moment, and keeps the headers it saw. */
export interface SwitchFront extends LoopbackServer {
  headers: IncomingHttpHeaders[];
  /** Later requests go to this upstream (an http://127.0.0.1:PORT origin). */
  switchTo(upstream: string): void;
}

export async function switchFront(initialUpstream: string): Promise<SwitchFront> {
  let upstream = new URL(initialUpstream);
  const headers: IncomingHttpHeaders[] = [];
  const server = await serveHttp((incoming, answer) => {
    headers.push(incoming.headers);
    const onward = request(
      { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (reply) => {
        answer.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(answer);
      },
    );
    onward.on('error', () => answer.destroy());
    incoming.pipe(onward);
  });
  return Object.assign(server, {
    headers,
    switchTo: (next: string) => {
      upstream = new URL(next);
    },
  });
}
