// --heap-growth PERCENT (`heapGrowth:` in the file): 0 for V8's own heuristics, or 10 to 400. What
// it does is in runtime/heap-growth.ts.
import { ConfigError } from '../protocol/errors.js';
import { DEFAULT_HEAP_GROWTH, MAX_HEAP_GROWTH, MIN_HEAP_GROWTH } from './defaults.js';
import { integer } from './whole-number.js';

export const HEAP_GROWTH_RANGE = `0, or ${MIN_HEAP_GROWTH} to ${MAX_HEAP_GROWTH}`;

export const validHeapGrowth = (n: number): boolean => Number.isInteger(n) && (n === 0 || (n >= MIN_HEAP_GROWTH && n <= MAX_HEAP_GROWTH));

/** The flag's value, else the file's (checked by file.ts), else the default. */
export function heapGrowth(raw: string | undefined, fromFile: number | undefined): number {
  if (raw === undefined) return fromFile ?? DEFAULT_HEAP_GROWTH;
  // The range has a hole (1 to 9), so it is checked here rather than by integer()'s min and max.
  const n = integer('--heap-growth', raw, 0, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (!validHeapGrowth(n)) throw new ConfigError(`--heap-growth: ${n} is out of range (${HEAP_GROWTH_RANGE})`);
  return n;
}
