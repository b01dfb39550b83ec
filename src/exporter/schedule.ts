/** How the exporter foresees probes: how far ahead a run may start, and how steady a target's probes must be. */
export interface ScheduleSettings {
  /** How long before a foreseen probe its run starts, and how long a batch of such runs gathers: the result's age is at most both. */
  leadMs: number;
  windowMs: number;
  /** How far two successive periods between a target's probes may differ, as a share of the period, for it to be steady. */
  tolerance: number;
  /** The time (epoch ms) the schedule reads: when probes come, when runs finish. A self-test sets its own. */
  clock?: () => number;
}

/** A run ahead starts 1 to 2 s before its probe: time for a run of a target that answers promptly to finish first. */
export const SCHEDULE: ScheduleSettings = { leadMs: 1000, windowMs: 1000, tolerance: 0.05 };

/** A probe foreseen: when it should come, and the time it gave the run last time. */
export interface ForeseenProbe {
  name: string;
  at: number;
  timeoutMs: number;
}

interface Arrivals {
  last: number;
  /** The time between the last two probes, and whether the one before it was the same (within the tolerance). */
  period?: number;
  steady: boolean;
  timeoutMs: number;
  /** The foreseen probe a run was already started for, so that it gets one. */
  foreseen?: number;
}

/**
 * The schedule of each target's probes, learned from when they come. Prometheus scrapes a target at a fixed interval
 * and offset, so a target whose last two intervals agree has its next probe foreseen; one probed at any other pace (by
 * hand, by two scrapers at their own offsets) has none, and is only run when asked.
 */
export class ProbeSchedule {
  private readonly targets = new Map<string, Arrivals>();

  constructor(private readonly settings: ScheduleSettings) {}

  /** A probe of the target came at `at` (epoch ms), with `timeoutMs` for its run. */
  arrived(name: string, at: number, timeoutMs: number): void {
    const known = this.targets.get(name);
    if (!known) {
      this.targets.set(name, { last: at, steady: false, timeoutMs });
      return;
    }
    const period = at - known.last;
    const steady = known.period !== undefined && Math.abs(period - known.period) <= this.settings.tolerance * known.period;
    this.targets.set(name, { last: at, period, steady, timeoutMs });
  }

  /** The steady targets whose next probe is foreseen in [from, to) and has no run started for it yet, each once. */
  foreseenBetween(from: number, to: number): ForeseenProbe[] {
    const due: ForeseenProbe[] = [];
    for (const [name, arrivals] of this.targets) {
      if (!arrivals.steady || arrivals.period === undefined) continue;
      const at = arrivals.last + arrivals.period;
      if (at < from || at >= to || arrivals.foreseen === at) continue;
      arrivals.foreseen = at;
      due.push({ name, at, timeoutMs: arrivals.timeoutMs });
    }
    return due;
  }
}
