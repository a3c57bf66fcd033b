// Ratios against a budget: a ratio taken repeat by repeat is summarised (median, min–max) and
// judged on its median, so one slow repeat on a shared machine neither meets nor breaks a budget.
import { summarize, type Summary } from './stats.js';

/** `atMost`: the ratio may not exceed it (a cost); `atLeast`: it may not fall below it (a speed). */
export type Budget = { atMost: number } | { atLeast: number };

export interface Verdict {
  ratio: Summary;
  budget: Budget;
  met: boolean;
}

export function judge(ratios: readonly number[], budget: Budget): Verdict {
  if (ratios.length === 0 || ratios.some((r) => !Number.isFinite(r))) throw new Error(`judge: expected finite ratios, got [${ratios.join(', ')}]`);
  const ratio = summarize(ratios);
  const met = 'atMost' in budget ? ratio.median <= budget.atMost : ratio.median >= budget.atLeast;
  return { ratio, budget, met };
}

/** `≤ 2.5×` or `≥ 0.6×`. */
export function budgetLabel(budget: Budget): string {
  return 'atMost' in budget ? `≤ ${budget.atMost}×` : `≥ ${budget.atLeast}×`;
}

/** CPU µs per operation from two readings in ms; NaN when nothing completed. */
export function cpuUsPerOp(beforeMs: number, afterMs: number, ops: number): number {
  return ops > 0 ? ((afterMs - beforeMs) * 1000) / ops : NaN;
}
