import AgentPart from 'undici/lib/dispatcher/agent.js';
import DispatcherPart from 'undici/lib/dispatcher/dispatcher.js';
import connectorPart from 'undici/lib/core/connect.js';
import EnvHttpProxyAgentPart from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import PoolPart from 'undici/lib/dispatcher/pool.js';
import api from 'undici/lib/api/index.js';
import type * as Undici from 'undici';

/*
 * The parts of undici the HTTP client uses, loaded one by one: undici's index loads every API it has (fetch, WebSocket,
 * caches, mocks, interceptors) at about three times the cost, and the client loads just before a run's first request.
 * Typed by undici's own declarations (the parts have none), so that no declaration file of ours names a part;
 * test/http-client.test.ts checks that they are undici's own classes.
 */
export const Agent: typeof Undici.Agent = AgentPart;
export const Pool: typeof Undici.Pool = PoolPart;
export const EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent = EnvHttpProxyAgentPart;
export const buildConnector: typeof Undici.buildConnector = connectorPart;

// What undici's index does besides loading: every dispatcher gets request, connect and the rest of the API (a proxy
// agent opens its tunnel with connect).
Object.assign(DispatcherPart.prototype, api);

/** A GET through the dispatcher, as undici's `request(url, options)` sends it. */
export function request(
  dispatcher: Undici.Dispatcher,
  url: URL,
  options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Undici.Dispatcher.ResponseData> {
  return dispatcher.request({ ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}
