import { describe, expect, test } from 'vitest';
import { ProbeSchedule } from '../src/exporter/schedule.js';

const SETTINGS = { leadMs: 1000, windowMs: 1000, tolerance: 0.05 };
const INTERVAL = 15_000;

/** A schedule that saw each target's probes come at the given times (ms), each giving its run 9.5 s. */
function scheduleOf(arrivals: Record<string, number[]>): ProbeSchedule {
  const schedule = new ProbeSchedule(SETTINGS);
  for (const [name, times] of Object.entries(arrivals)) for (const at of times) schedule.arrived(name, at, 9500);
  return schedule;
}

describe('the probes the exporter foresees', () => {
  test('a target probed at a steady interval has its next probe foreseen, with the time its probes give the run', () => {
    const schedule = scheduleOf({ steady: [0, INTERVAL, 2 * INTERVAL + 40] });
    expect(schedule.foreseenBetween(3 * INTERVAL - 2000, 3 * INTERVAL + 2000)).toEqual([
      { name: 'steady', at: 3 * INTERVAL + 80, timeoutMs: 9500 },
    ]);
  });

  test('each foreseen probe once: a window that holds it again, or a later one, gets nothing until the probe comes', () => {
    const schedule = scheduleOf({ steady: [0, INTERVAL, 2 * INTERVAL] });
    expect(schedule.foreseenBetween(44_000, 46_000)).toHaveLength(1);
    expect(schedule.foreseenBetween(44_000, 46_000)).toEqual([]);
    // The scraper stopped: its next probe, 15 s on, is not foreseen from a probe that never came.
    expect(schedule.foreseenBetween(46_000, 61_000)).toEqual([]);
    schedule.arrived('steady', 3 * INTERVAL, 9500);
    expect(schedule.foreseenBetween(59_000, 61_000)).toHaveLength(1);
  });

  test('a probe outside the window is not foreseen in it', () => {
    const schedule = scheduleOf({ steady: [0, INTERVAL, 2 * INTERVAL] });
    expect(schedule.foreseenBetween(40_000, 45_000)).toEqual([]);
    expect(schedule.foreseenBetween(45_001, 50_000)).toEqual([]);
    expect(schedule.foreseenBetween(45_000, 45_001)).toHaveLength(1);
  });

  test('targets probed at another pace have none: one probe, two, by hand, or by two scrapers at their own offsets', () => {
    const schedule = scheduleOf({
      once: [0],
      twice: [0, INTERVAL],
      byHand: [0, 4000, 30_000],
      twoScrapers: [0, 6000, INTERVAL, INTERVAL + 6000, 2 * INTERVAL],
      slowing: [0, INTERVAL, 2 * INTERVAL + 1000],
    });
    expect(schedule.foreseenBetween(0, 10 * INTERVAL)).toEqual([]);
  });

  test('the targets due in one window come together, the others in their own', () => {
    const schedule = scheduleOf({
      a: [0, INTERVAL, 2 * INTERVAL],
      b: [300, INTERVAL + 300, 2 * INTERVAL + 300],
      c: [5000, 20_000, 35_000],
    });
    expect(schedule.foreseenBetween(44_000, 46_000).map((probe) => probe.name)).toEqual(['a', 'b']);
    expect(schedule.foreseenBetween(49_000, 51_000).map((probe) => probe.name)).toEqual(['c']);
  });
});
