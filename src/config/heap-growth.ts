// --heap-growth PERCENT (`heapGrowth:` in the file): 0 for V8's own heuristics, or 10 to 400. What
// it does is in runtime/heap-growth.ts.
import { ConfigError } from '../protocol/errors.js';
import { DEFAULT_HEAP_GROWTH, MAX_HEAP_GROWTH, MIN_HEAP_GROWTH } from './defaults.js';

export const HEAP_GROWTH_RANGE = `0, or ${MIN_HEAP_GROWTH} to ${MAX_HEAP_GROWTH}`;

export const validHeapGrowth = (n: number): boolean => Number.isInteger(n) && (n === 0 || (n >= MIN_HEAP_GROWTH && n <= MAX_HEAP_GROWTH));

/** The flag's value, else the file's, else the default. */
export function heapGrowth(raw: string | undefined, fromFile: number | undefined): number {
  if (raw === undefined) return fromFile ?? DEFAULT_HEAP_GROWTH;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`--heap-growth: expected a whole number, got '${raw}'`);
  const n = Number(raw);
  if (!validHeapGrowth(n)) throw new ConfigError(`--heap-growth: ${n} is out of range (${HEAP_GROWTH_RANGE})`);
  return n;
}
