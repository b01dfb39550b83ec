import type { IncomingHttpHeaders } from 'node:http';
import { forward, serveHttp, type LoopbackServer } from './loopback-server.js';

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
    forward(incoming, answer, upstream);
  });
  return Object.assign(server, {
    headers,
    switchTo: (next: string) => {
      upstream = new URL(next);
    },
  });
}
