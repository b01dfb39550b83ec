import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PREFIX } from './probe-metrics.js';

const OWN = `${PREFIX}exporter_`;
/** From a local target (a few hundred ms) to a scrape time-out (tens of seconds). */
const SECONDS_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The exporter's own series, served on /metrics: what it did, not what the targets did. */
export class OwnMetrics {
  readonly registry = new Registry();
  readonly probes = new Counter({
    name: `${OWN}probes_total`,
    help: 'Probes served, by result',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly runsStarted = new Counter({ name: `${OWN}runs_started_total`, help: 'Conformance runs started', registers: [this.registry] });
  readonly runsReused = new Counter({
    name: `${OWN}runs_reused_total`,
    help: 'Probes answered with a run already under way or one that finished less than --min-interval ago',
    registers: [this.registry],
  });
  readonly runsAhead = new Counter({
    name: `${OWN}runs_ahead_total`,
    help: "Runs started shortly before a probe foreseen on its target's steady schedule, to be judged with the others due then",
    registers: [this.registry],
  });
  readonly runErrors = new Counter({
    name: `${OWN}run_errors_total`,
    help: "Runs that met an error (theirs or a check's) which kept them from judging everything",
    registers: [this.registry],
  });
  readonly connectionsRefused = new Counter({
    name: `${OWN}connections_refused_total`,
    help: 'Connections closed as they arrived because the exporter already held as many as it takes',
    registers: [this.registry],
  });
  readonly runsInFlight = new Gauge({ name: `${OWN}runs_in_flight`, help: 'Runs under way', registers: [this.registry] });
  readonly runDuration = new Histogram({
    name: `${OWN}run_duration_seconds`,
    help: 'Time from the start of a run to its report',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly probeDuration = new Histogram({
    name: `${OWN}probe_duration_seconds`,
    help: 'Time from a probe request to its answer',
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  /**
   * `judgingHeap` reads the judging thread's heap, which the process's own figures leave out; `keptConnections`, the
   * targets' connections kept open between runs.
   */
  constructor(targets: number, judgingHeap: () => Promise<number | undefined>, keptConnections: () => number) {
    new Gauge({ name: `${OWN}targets`, help: 'Targets in the targets file', registers: [this.registry] }).set(targets);
    this.probes.inc({ result: 'answered' }, 0);
    processMetrics(this.registry);
    new Gauge({
      name: `${OWN}kept_connections`,
      help: "Connections to the targets kept open for their next runs, idle or in a run's use",
      registers: [this.registry],
      collect() {
        this.set(keptConnections());
      },
    });
    new Gauge({
      name: `${OWN}judging_thread_heap_used_bytes`,
      help: "V8 heap in use by the thread that judges recordings, in bytes (nodejs_heap_used_bytes is the main thread's)",
      registers: [this.registry],
      async collect() {
        const bytes = await judgingHeap();
        if (bytes !== undefined) this.set(bytes);
      },
    });
  }
}

/**
 * The standard process series, read when scraped. prom-client's default set is not used: some of its gauges end in
 * _total, which promtool check metrics rejects.
 */
function processMetrics(registry: Registry): void {
  new Counter({
    name: 'process_cpu_seconds_total',
    help: 'User and system CPU time spent, in seconds',
    registers: [registry],
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size, in bytes',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'nodejs_heap_used_bytes',
    help: 'V8 heap in use, in bytes',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  new Gauge({
    name: 'process_start_time_seconds',
    help: 'Start time of the process since the epoch, in seconds',
    registers: [registry],
  }).set(Math.round(Date.now() / 1000 - process.uptime()));
}
