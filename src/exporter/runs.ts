import type { TargetEntry } from '../config/targets.js';
import type { Report } from '../report/model/types.js';
import { clientKeySecrets, createSecretScanner, type SecretScanner } from '../secrets/scanner.js';
import { judgeTimeoutMs, onePassReport, startJudge, type JudgeQueue } from '../pipeline/pipeline.js';
import type { OwnMetrics } from './own-metrics.js';
import { runErrors, type ProbeOutcome } from './probe-metrics.js';

export interface RunsOptions {
  /**
   * A run that finished less than this ago answers later probes instead of a new run. Counted from the end, so a run
   * that finished after its probe gave up still answers the next probe: an overloaded exporter sheds load, not work.
   */
  minIntervalMs: number;
  metrics: OwnMetrics;
}

interface Watched {
  entry: TargetEntry;
  scanner: SecretScanner;
}

interface Finished {
  report: Report;
  finishedAt: number;
}

/**
 * The runs of the exporter, one target at a time: a probe joins the run already under way for its target, or takes
 * a result younger than --min-interval, so however many scrapers ask, a target sees at most one run per interval.
 * Targets never wait for one another: each records on its own, and only the judging (CPU) is shared.
 */
export class Runs {
  /** Each target with its secrets made into a scanner once, as its probes all screen for the same ones. */
  private readonly targets: Map<string, Watched>;
  private readonly underWay = new Map<string, Promise<Report>>();
  private readonly finished = new Map<string, Finished>();
  private readonly judge: JudgeQueue;

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
    const fresh = this.finished.get(name);
    if (fresh && Date.now() - fresh.finishedAt < this.options.minIntervalMs) {
      this.options.metrics.runsReused.inc();
      return { report: fresh.report, reused: true };
    }
    let running = this.underWay.get(name);
    const reused = running !== undefined;
    if (running) {
      this.options.metrics.runsReused.inc();
    } else {
      running = this.start(watched, answerBy);
      this.underWay.set(name, running);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, answerBy - Date.now()))));
    try {
      const report = await Promise.race([running, late]);
      return { report, reused };
    } finally {
      clearTimeout(timer);
    }
  }

  private start({ entry, scanner }: Watched, answerBy: number): Promise<Report> {
    const { metrics } = this.options;
    metrics.runsStarted.inc();
    metrics.runsInFlight.inc();
    const startedAt = new Date();
    // Requests stop early enough for the judging to fit before the scrape's time-out.
    const budgetMs = answerBy - startedAt.getTime();
    const deadlineMs = Math.max(1, Math.min(entry.options.deadlineMs, budgetMs - judgingReserveMs(budgetMs)));
    const options = { ...entry.options, deadlineMs };
    return onePassReport({ ...entry, options }, this.judge, scanner, { startedAt })
      .then((report) => {
        this.finished.set(entry.name, { report, finishedAt: Date.now() });
        if (runErrors(report).length > 0) metrics.runErrors.inc();
        return report;
      })
      .finally(() => {
        this.underWay.delete(entry.name);
        metrics.runsInFlight.dec();
        metrics.runDuration.observe((Date.now() - startedAt.getTime()) / 1000);
      });
  }

  judgingHeapUsedBytes(): Promise<number | undefined> {
    return this.judge.judgingHeapUsedBytes();
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.underWay.values());
    await this.judge.close();
  }
}

/** Time kept back from the requests for judging the recording: a quarter of the budget, at most two seconds. */
function judgingReserveMs(budgetMs: number): number {
  return Math.min(2000, budgetMs / 4);
}
