import type { TargetEntry } from '../config/targets.js';
import { connectionHost, openConnection, proxyInEnvironment } from '../http/dispatcher.js';
import { SharedConnections } from '../http/shared-connections.js';

/**
 * The most connections kept open between runs, over every target (256 targets at the default --concurrency): a target
 * whose run would leave more open has them closed, and opens its own at each run, as without keeping. Node raises its
 * limit of open files to the system's hard limit as it starts, far above this.
 */
export const MAX_KEPT_CONNECTIONS = 4096;

/**
 * How long an idle connection is kept: at most this, and at most what the target announces (Keep-Alive: timeout=N)
 * less a margin. Longer than Prometheus' usual scrape intervals, so a target that keeps connections that long (nginx:
 * 75 s) is probed over the connections of its last run; one that keeps them less (Apache: 5 s) gets new ones each run.
 */
export const KEEP_IDLE_MS = 60_000;

/**
 * How long a target whose kept connections were all gone by its next run has its connections closed as each run ends,
 * as they would not outlive the time to its next run either; then one run keeps them again, to learn whether they do.
 */
export const CLOSE_AFTER_RUN_MS = 600_000;

interface Kept {
  connections: SharedConnections;
  /** Every certificate the connections were opened with. */
  certificates: Set<string>;
  /** Connections left open by the last run. */
  open: number;
}

/**
 * Each target's connections, kept from one run to the next while the target keeps them alive, so that a run does not
 * open and close as many connections each time. A probe still shows what a new client of the target meets: a run
 * that finds connections kept first opens one more of its own, as a run without them would; if that fails (a port
 * closed since, a certificate no longer trusted) or presents another certificate than the kept ones were opened with,
 * the kept connections are ended and the run opens new ones, meeting the failure or the certificate itself.
 * Targets reached through a proxy from the environment open their connections at each run.
 */
export class KeptConnections {
  private readonly kept = new Map<string, Kept>();
  /** Targets whose connections are closed as each run ends, until when (epoch ms). */
  private readonly closeAfterRun = new Map<string, number>();

  /** The connections for the target's next run: those kept from its last, if a new connection meets what they met. */
  async forRun(entry: TargetEntry): Promise<SharedConnections | undefined> {
    if (proxyInEnvironment()) return undefined;
    const kept = this.kept.get(entry.name);
    if (kept && kept.connections.counts().connections > 0) {
      // What a new connection meets: a certificate's fingerprint, none over http, or undefined if it failed.
      const fingerprint = await openConnection(entry.options, new URL(entry.baseUrl)).then(
        (found) => found ?? '',
        () => undefined,
      );
      if (fingerprint !== undefined && allOpenedWith(kept.certificates, fingerprint)) {
        kept.connections.forgetHosts();
        // The run shows the certificate of the connection it opened, and of any more it opens.
        if (fingerprint !== '') kept.connections.host(hostOf(entry)).certificates.add(fingerprint);
        return kept.connections;
      }
    }
    if (kept) {
      // Kept connections all gone: the target does not keep them until its next run, so they cost memory for nothing.
      if (kept.open > 0 && kept.connections.counts().connections === 0) this.closeAfterRun.set(entry.name, Date.now() + CLOSE_AFTER_RUN_MS);
      await this.end(entry.name, kept);
    }
    const fresh: Kept = { connections: new SharedConnections(1, KEEP_IDLE_MS), certificates: new Set(), open: 0 };
    this.kept.set(entry.name, fresh);
    return fresh.connections;
  }

  /**
   * After the target's run: what its connections presented, for the next run to compare. They are ended if a request
   * abandoned at the run's deadline still holds one, if keeping them would pass the cap, or if the last ones kept were
   * gone by this run.
   */
  async afterRun(entry: TargetEntry): Promise<void> {
    const kept = this.kept.get(entry.name);
    if (!kept) return;
    for (const certificate of kept.connections.host(hostOf(entry)).certificates) kept.certificates.add(certificate);
    const { connections, requests } = kept.connections.counts();
    kept.open = connections;
    const closing = (this.closeAfterRun.get(entry.name) ?? 0) > Date.now();
    if (closing || requests > 0 || this.openElsewhere(entry.name) + connections > MAX_KEPT_CONNECTIONS) await this.end(entry.name, kept);
  }

  /** Connections kept for the other targets: counted again only near the cap, as their idle ones close on their own. */
  private openElsewhere(name: string): number {
    const sum = (): number => [...this.kept].reduce((total, [other, kept]) => (other === name ? total : total + kept.open), 0);
    if (sum() <= MAX_KEPT_CONNECTIONS / 2) return sum();
    for (const kept of this.kept.values()) kept.open = kept.connections.counts().connections;
    return sum();
  }

  /** Connections open now over every target, idle or in a run's use. */
  open(): number {
    let open = 0;
    for (const kept of this.kept.values()) open += kept.connections.counts().connections;
    return open;
  }

  async close(): Promise<void> {
    await Promise.all([...this.kept].map(([name, kept]) => this.end(name, kept)));
  }

  private async end(name: string, kept: Kept): Promise<void> {
    this.kept.delete(name);
    await kept.connections.close();
  }
}

/** Whether every connection kept was opened with the certificate a new one presents ('' over http: none). */
const allOpenedWith = (certificates: Set<string>, fingerprint: string): boolean =>
  fingerprint === '' ? certificates.size === 0 : certificates.size === 1 && certificates.has(fingerprint);

const hostOf = (entry: TargetEntry): string => {
  const base = new URL(entry.baseUrl);
  return connectionHost(base.protocol, base.hostname, base.port);
};
