// Order statistics for benchmark samples. Nothing here asserts anything: it only summarises.

/** Nearest-rank percentile of an unsorted sample (q in 0..100). */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return percentileSorted(sorted, q);
}

export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** The median of repeated measurements and their spread (min–max, which for 3–5 repeats is the honest choice). */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
  /** Every repeat, in run order. */
  runs: number[];
}

export function summarize(runs: readonly number[]): Summary {
  return { median: median(runs), min: Math.min(...runs), max: Math.max(...runs), n: runs.length, runs: [...runs] };
}

/** Summary of a ratio a/b taken repeat by repeat (paired, so drift between repeats cancels). */
export function pairedRatio(a: readonly number[], b: readonly number[]): Summary {
  return summarize(a.map((x, i) => x / b[i]!));
}

export function pairedDiff(a: readonly number[], b: readonly number[]): Summary {
  return summarize(a.map((x, i) => x - b[i]!));
}

/** Least-squares slope and intercept of y over x. */
export function linearFit(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number; r2: number } {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy) };
}

/** `1.23 (1.10–1.40)` with a fixed number of decimals. */
export function fmt(s: Summary, digits = 2): string {
  if (s.n <= 1) return s.median.toFixed(digits);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

export function fmtInt(s: Summary): string {
  const r = (v: number) => Math.round(v).toLocaleString('en-US');
  if (s.n <= 1) return r(s.median);
  return `${r(s.median)} (${r(s.min)}–${r(s.max)})`;
}
