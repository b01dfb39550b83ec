import { show } from './outcome.js';

const SECONDS_RANGE = [1e9, 1e10] as const;
const MILLISECONDS_RANGE = [1e12, 1e13] as const;

/** A guess, stated as one, at the unit of a timestamp whose unit the document leaves open. */
export function timestampUnit(value: unknown): string {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${show(value)} (not an integer)`;
  if (value >= SECONDS_RANGE[0] && value < SECONDS_RANGE[1]) {
    return `${value}: looks like Unix seconds (${new Date(value * 1000).toISOString()})`;
  }
  if (value >= MILLISECONDS_RANGE[0] && value < MILLISECONDS_RANGE[1]) {
    return `${value}: looks like Unix milliseconds (${new Date(value).toISOString()})`;
  }
  return `${value}: unit not recognised`;
}
