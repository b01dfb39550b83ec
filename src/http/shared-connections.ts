import { Agent, type Dispatcher } from 'undici';
import { clientTlsOptions, createDispatcher, type TransportOptions } from './dispatcher.js';

/**
 * What the connections to one host met: the certificates it presented, the TLS alert one of them last ended with, and
 * whether one was made, which the clients waiting on their first request hear.
 */
export interface SharedHost {
  certificates: Set<string>;
  error?: Error;
  reached: boolean;
  onReached: Set<() => void>;
}

/**
 * Connections that the targets of one command share (a matrix's): one dispatcher for each way of connecting (time-outs,
 * concurrency, TLS trust, client certificate, proxy), whose pools keep a finished target's connections open for the
 * next target on the same host. A fleet of deployments behind one host (tenants under path prefixes, one front for
 * many) then opens its connections once, not 22 for every target. Each target still sends its own requests, at most
 * its concurrency at once (its client's limiter), and the dispatchers are destroyed when the command ends.
 */
export class SharedConnections {
  private readonly dispatchers = new Map<string, Dispatcher>();
  private readonly hosts = new Map<string, SharedHost>();

  /**
   * targetsAtOnce: how many targets may be in flight together, each with up to its concurrency of connections;
   * keepIdleMs: how long an idle connection is kept (see TransportOptions).
   */
  constructor(
    private readonly targetsAtOnce: number,
    private readonly keepIdleMs?: number,
  ) {}

  /** What the connections to a host met, over every target that went there. */
  host(name: string): SharedHost {
    let found = this.hosts.get(name);
    if (!found) {
      found = { certificates: new Set(), reached: false, onReached: new Set() };
      this.hosts.set(name, found);
    }
    return found;
  }

  dispatcher(options: Omit<TransportOptions, 'onTlsCertificate' | 'onTlsError'>): Dispatcher {
    const key = JSON.stringify([options.timeoutMs, options.concurrency, options.proxyFromEnvironment === true, clientTlsOptions(options)]);
    let found = this.dispatchers.get(key);
    if (!found) {
      found = createDispatcher({
        ...options,
        concurrency: options.concurrency * this.targetsAtOnce,
        ...(this.keepIdleMs === undefined ? {} : { keepIdleMs: this.keepIdleMs }),
        onTlsCertificate: (fingerprint, host) => this.host(host).certificates.add(fingerprint),
        onTlsError: (error, host) => (this.host(host).error = error),
        onConnected: (host) => {
          const reached = this.host(host);
          reached.reached = true;
          for (const listener of [...reached.onReached]) listener();
          reached.onReached.clear();
        },
      });
      this.dispatchers.set(key, found);
    }
    return found;
  }

  /** How many connections are open, and how many requests are sent or waiting for one: from the pools of each origin. */
  counts(): { connections: number; requests: number } {
    let connections = 0;
    let requests = 0;
    for (const dispatcher of this.dispatchers.values()) {
      // A proxy's agent keeps no pools of its own to count: its connections are never kept for another command.
      if (!(dispatcher instanceof Agent)) continue;
      for (const pool of Object.values(dispatcher.stats)) {
        connections += Number(pool.connected);
        requests += pool.pending + pool.running;
      }
    }
    return { connections, requests };
  }

  /** Forgets what the hosts met, so that the next target to use the connections learns it for itself. */
  forgetHosts(): void {
    this.hosts.clear();
  }

  /** Ends every connection, a request abandoned at its target's deadline among them. */
  async close(): Promise<void> {
    const dispatchers = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.destroy()));
  }
}
