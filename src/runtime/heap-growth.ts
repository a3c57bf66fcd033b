// How far V8 lets the old generation grow past what survived the last full collection before it
// collects again (--heap-growth). V8 picks a factor between 1.1 and 4 by how cheap its collections
// have been; for a proxy, whose live heap is small (~30 MB) and whose garbage is request graphs
// that happened to outlive two scavenges, that meant growing to ~125 MB before every full
// collection: under 1,000 calls/s the process went from ~85 to ~200 MiB RSS, for nothing (issue 10,
// target 6). A fixed 30% keeps it near 130 MiB, and the full collections of a small heap are cheap
// (GC time per call did not rise; bench/README.md, "Heap growth").
//
// It is a V8 flag, set at run time (Node allows it, and V8 reads this one each time it sets the
// next limit). Only the `mrtr-proxy` command sets it: the library leaves its host's heap alone. A
// `--heap-growing-percent` the operator gave node itself (`node --heap-growing-percent=N
// mrtr-proxy.js`; node refuses it in NODE_OPTIONS) wins.
import { setFlagsFromString } from 'node:v8';

export type HeapGrowthOutcome = { kind: 'set'; percent: number } | { kind: 'v8-default' } | { kind: 'operator'; flag: string };

const V8_FLAG = /--heap[-_]growing[-_]percent(?:=\S+)?/;

/** The node flag the operator already gave, if any (node's own arguments). */
export function operatorHeapFlag(execArgv: readonly string[]): string | undefined {
  for (const arg of execArgv) {
    const m = V8_FLAG.exec(arg);
    if (m) return m[0];
  }
  return undefined;
}

/** What `applyHeapGrowth` does for `percent` (0: V8's own heuristics) given the operator's flags. Pure. */
export function heapGrowthPlan(percent: number, operatorFlag: string | undefined): HeapGrowthOutcome {
  if (operatorFlag !== undefined) return { kind: 'operator', flag: operatorFlag };
  return percent === 0 ? { kind: 'v8-default' } : { kind: 'set', percent };
}

export function applyHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): HeapGrowthOutcome {
  const plan = heapGrowthPlan(percent, operatorHeapFlag(execArgv));
  if (plan.kind === 'set') setFlagsFromString(`--heap-growing-percent=${plan.percent}`);
  return plan;
}
