// A command-line option whose value is a whole number in a range.
import { ConfigError } from '../protocol/errors.js';

/** `raw` as a whole number from `min` to `max`; `fallback` when the option was not given. */
export function integer(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${flag}: expected a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${flag}: ${n} is out of range (${min} to ${max})`);
  return n;
}
