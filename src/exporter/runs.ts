import type { TargetEntry } from '../config/targets.js';
import { clientKeySecrets, createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { judgeTimeoutMs, MAX_BATCH, onePassReport, startJudge, type JudgeQueue } from '../pipeline/pipeline.js';
import { KeptConnections } from './kept-connections.js';
import type { OwnMetrics } from './own-metrics.js';
import { runErrors, runSeries, type ProbeOutcome } from './probe-metrics.js';
import { ProbeSchedule, SCHEDULE, type ForeseenProbe, type ScheduleSettings } from './schedule.js';

export interface RunsOptions {
  /**
   * A run that finished less than this ago answers later probes instead of a new run. Counted from the end, so a run
   * that finished after its probe gave up still answers the next probe: an overloaded exporter sheds load, not work.
   */
  minIntervalMs: number;
  metrics: OwnMetrics;
  /** Only the self-tests change it, to see runs ahead without waiting for Prometheus' pace. */
  schedule?: ScheduleSettings;
}

interface Watched {
  entry: TargetEntry;
  scanner: SecretScanner;
}

/** A finished run as its probes show it: its report is not kept, only the series written from it. */
interface Finished {
  series: string;
  finishedAt: number;
}

/**
 * The runs of the exporter, one target at a time: a probe joins the run already under way for its target, or takes
 * a result younger than --min-interval, so however many scrapers ask, a target sees at most one run per interval.
 * Targets never wait for one another: each records on its own, and only the judging (CPU) is shared.
 *
 * A target probed at a steady pace has its next probe foreseen, and its run starts shortly before the probe comes,
 * together with the runs of every probe foreseen in the same window: their recordings are judged as one batch (a
 * spec run each probe cost alone), and the probe takes a run already done or under way.
 */
export class Runs {
  /** Each target with its secrets made into a scanner once, as its probes all screen for the same ones. */
  private readonly targets: Map<string, Watched>;
  private readonly underWay = new Map<string, Promise<string>>();
  private readonly finished = new Map<string, Finished>();
  private readonly judge: JudgeQueue;
  private readonly connections = new KeptConnections();
  private readonly schedule: ProbeSchedule;
  /** Targets whose latest run started ahead of a foreseen probe that has not come yet: that probe takes it as its own. */
  private readonly ahead = new Set<string>();
  private readonly aheadTimer?: NodeJS.Timeout;
  /** The end of the last window whose foreseen probes got their runs. */
  private foreseenUntil: number;
  /** The schedule's time: when probes come and runs finish, what is fresh and what is foreseen. */
  private readonly now: () => number;

  constructor(
    targets: TargetEntry[],
    private readonly options: RunsOptions,
  ) {
    this.targets = new Map(
      targets.map((entry) => {
        const scanner = createSecretScanner([entry.token], [entry.options.password], clientKeySecrets(entry.options));
        return [entry.name, { entry, scanner }];
      }),
    );
    this.judge = startJudge({
      timeoutMs: judgeTimeoutMs(targets),
      // The cause goes to the log once, since the series only carry its code.
      onReplaced: (cause) => console.error(`exporter: ${cause}; the next runs get a new spec runner`),
    });
    // Vitest starts ahead of the first probe, so that probe's run is not cut short by the start-up.
    this.judge.warmUp();
    const schedule = options.schedule ?? SCHEDULE;
    this.now = schedule.clock ?? Date.now;
    this.foreseenUntil = this.now();
    this.schedule = new ProbeSchedule(schedule);
    // A run ahead must still be fresh when its probe comes, or the probe would start another.
    if (schedule.leadMs + 2 * schedule.windowMs < options.minIntervalMs) {
      this.aheadTimer = setInterval(() => this.startRunsAhead(schedule), schedule.windowMs).unref();
    }
  }

  has(name: string): boolean {
    return this.targets.has(name);
  }

  /**
   * The outcome for a probe that must be answered by `answerBy` (epoch ms): a fresh, shared or new run's report,
   * or none when the run is not done by then (it goes on, and its result serves the next probe within the interval).
   */
  async probe(name: string, answerBy: number): Promise<ProbeOutcome> {
    const watched = this.targets.get(name);
    if (!watched) throw new Error(`unknown target ${name}`);
    this.schedule.arrived(name, this.now(), answerBy - Date.now());
    // The first probe to come after a run ahead of it takes that run as its own.
    const own = this.ahead.delete(name);
    const fresh = this.finished.get(name);
    if (fresh && this.now() - fresh.finishedAt < this.options.minIntervalMs) {
      if (!own) this.options.metrics.runsReused.inc();
      return { series: fresh.series, reused: !own };
    }
    let running = this.underWay.get(name);
    const reused = running !== undefined && !own;
    if (running) {
      if (reused) this.options.metrics.runsReused.inc();
    } else {
      running = this.start(watched, answerBy);
      this.underWay.set(name, running);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, answerBy - Date.now()))));
    try {
      const series = await Promise.race([running, late]);
      return series === undefined ? { reused } : { series, reused };
    } finally {
      clearTimeout(timer);
    }
  }

  private start({ entry, scanner }: Watched, answerBy: number): Promise<string> {
    const { metrics } = this.options;
    metrics.runsStarted.inc();
    metrics.runsInFlight.inc();
    const startedAt = new Date();
    // Requests stop early enough for the judging to fit before the scrape's time-out.
    const budgetMs = answerBy - startedAt.getTime();
    const deadlineMs = Math.max(1, Math.min(entry.options.deadlineMs, budgetMs - judgingReserveMs(budgetMs)));
    const options = { ...entry.options, deadlineMs };
    return this.connections
      .forRun(entry)
      .then((connections) =>
        onePassReport({ ...entry, options }, this.judge, scanner, { startedAt, ...(connections ? { connections } : {}) }).finally(() =>
          this.connections.afterRun(entry),
        ),
      )
      .then((report) => {
        const series = runSeries(report);
        this.finished.set(entry.name, { series, finishedAt: this.now() });
        if (runErrors(report).length > 0) metrics.runErrors.inc();
        return series;
      })
      .finally(() => {
        this.underWay.delete(entry.name);
        metrics.runsInFlight.dec();
        metrics.runDuration.observe((Date.now() - startedAt.getTime()) / 1000);
      });
  }

  /**
   * Starts the runs of the probes foreseen in the next window, a lead before they come, unless their target has a run
   * under way or one that will still be fresh then. At most a judging batch of them: a window of a large fleet does
   * not open every target's connections at once, and the probes of the others start their runs as they come.
   */
  private startRunsAhead({ leadMs, windowMs }: ScheduleSettings): void {
    const until = this.now() + leadMs + windowMs;
    const foreseen = this.schedule.foreseenBetween(Math.max(this.foreseenUntil, this.now()), until);
    this.foreseenUntil = until;
    let started = 0;
    for (const probe of foreseen) if (started < MAX_BATCH && this.startAhead(probe)) started += 1;
  }

  /** Starts the run of a foreseen probe, unless its target has a run under way or one that is still fresh then. */
  private startAhead({ name, at, timeoutMs }: ForeseenProbe): boolean {
    const watched = this.targets.get(name);
    const fresh = this.finished.get(name);
    if (!watched || this.underWay.has(name) || (fresh && at - fresh.finishedAt < this.options.minIntervalMs)) return false;
    this.options.metrics.runsAhead.inc();
    this.ahead.add(name);
    // The probe's time-out counts from when it comes: that far ahead of now, on the clock the requests keep.
    const running = this.start(watched, Date.now() + (at - this.now()) + timeoutMs);
    this.underWay.set(name, running);
    // A probe gives up on a run at its time-out; a run nobody waits for yet must not reject unheard.
    running.catch(() => undefined);
    return true;
  }

  keptConnections(): number {
    return this.connections.open();
  }

  judgingHeapUsedBytes(): Promise<number | undefined> {
    return this.judge.judgingHeapUsedBytes();
  }

  async close(): Promise<void> {
    clearInterval(this.aheadTimer);
    await Promise.allSettled(this.underWay.values());
    await Promise.all([this.connections.close(), this.judge.close()]);
  }
}

/** Time kept back from the requests for judging the recording: a quarter of the budget, at most two seconds. */
function judgingReserveMs(budgetMs: number): number {
  return Math.min(2000, budgetMs / 4);
}
