// Case 10: mrtr-proxy beside mcp-uplift 0.2.6, the plain-JavaScript bridge that does the same
// translation for one legacy stdio server without validating, sealing requestState, or running
// calls concurrently (one lock for every call). Both over stdio (mcp-uplift has no other front),
// both launched by one client in front of the same legacy fixture, the proxy at its default flags:
// one interactive round's latency at one client, the throughput of 16 concurrent interactive flows
// on the connection, and one client's pass-through throughput; each bridge's CPU per operation for
// context. The two alternate within each repeat; ratios are paired per repeat. Without a checkout of
// mcp-uplift the case says SKIPPED loudly and records why (lib/uplift.ts says how to get one).
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { fmt, median, summarize } from '../lib/stats.js';
import { budgetLabel, judge, type Budget } from '../lib/budget.js';
import { flow, measure, passCall, startProxy, startUplift, type Bridge, type Sample } from '../lib/bridges.js';
import { Scope } from '../lib/procs.js';
import { findUplift, UPLIFT_TAG } from '../lib/uplift.js';
import type { BarPanel } from '../lib/svg.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

const FLOWS = 16;
export const UPLIFT_TARGETS = {
  round: { atMost: 2 },
  flows: { atLeast: 1 },
  calls: { atLeast: 0.6 },
} satisfies Record<string, Budget>;

interface Repeat {
  /** p50 of one interactive flow at one client, ms. */
  roundP50: number;
  flows: Sample;
  calls: Sample;
}

let seq = 0;

async function roundP50s(a: Bridge, b: Bridge, n: number, flip: boolean): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < n; i++) {
    const order = (i + (flip ? 1 : 0)) % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const t0 = performance.now();
      await flow(side === 0 ? a : b, ++seq);
      times[side]!.push(performance.now() - t0);
    }
  }
  return [median(times[0]), median(times[1])];
}

function skipped(reason: string, opts: BenchOptions): CaseResult {
  const line = `SKIPPED: the mcp-uplift case needs mcp-uplift ${UPLIFT_TAG}: ${reason}`;
  opts.log(line);
  process.stderr.write(`\n*** ${line} ***\n\n`);
  return {
    name: 'uplift',
    tables: [{ title: `mrtr-proxy beside mcp-uplift ${UPLIFT_TAG}: SKIPPED`, columns: ['skipped because'], rows: [[reason]] }],
    charts: [],
    data: { skipped: reason },
  };
}

export async function uplift(opts: BenchOptions): Promise<CaseResult> {
  const found = findUplift();
  if ('missing' in found) return skipped(found.missing, opts);
  if (found.version !== UPLIFT_TAG.slice(1)) opts.log(`uplift: the checkout at ${found.dir} is version ${found.version}, not ${UPLIFT_TAG.slice(1)}`);
  const repeats = opts.quick ? 2 : 6;
  const sequential = opts.quick ? 30 : 150;
  const windowMs = opts.quick ? 1000 : 3000;
  const warmMs = opts.quick ? 1000 : 5000;
  const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const scope = new Scope();
  const runs: { proxy: Repeat[]; uplift: Repeat[] } = { proxy: [], uplift: [] };
  try {
    const proxy = await startProxy(scope, 'stdio');
    const up = startUplift(scope, found.dir);
    opts.log(`uplift: warm-up ${(warmMs * 3) / 1000} s each`);
    for (const b of [proxy, up]) {
      await measure(b, passCall, 1, warmMs);
      await measure(b, flow, FLOWS, warmMs);
      await measure(b, flow, 1, warmMs);
    }
    for (let r = 0; r < repeats; r++) {
      opts.log(`uplift: repeat ${r + 1}/${repeats}`);
      const [pRound, uRound] = await roundP50s(proxy, up, sequential, r % 2 === 1);
      const order: Bridge[] = r % 2 === 0 ? [proxy, up] : [up, proxy];
      const flows = new Map<Bridge, Sample>();
      const calls = new Map<Bridge, Sample>();
      for (const b of order) flows.set(b, await measure(b, flow, FLOWS, windowMs));
      for (const b of order.reverse()) calls.set(b, await measure(b, passCall, 1, windowMs));
      runs.proxy.push({ roundP50: pRound, flows: flows.get(proxy)!, calls: calls.get(proxy)! });
      runs.uplift.push({ roundP50: uRound, flows: flows.get(up)!, calls: calls.get(up)! });
    }
  } finally {
    await scope.close();
  }
  const loadAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const ratio = (of: (x: Repeat) => number) => runs.proxy.map((p, i) => of(p) / of(runs.uplift[i]!));
  const verdicts = {
    round: judge(
      ratio((x) => x.roundP50),
      UPLIFT_TARGETS.round,
    ),
    flows: judge(
      ratio((x) => x.flows.throughput),
      UPLIFT_TARGETS.flows,
    ),
    calls: judge(
      ratio((x) => x.calls.throughput),
      UPLIFT_TARGETS.calls,
    ),
  };
  const failures = (['proxy', 'uplift'] as const).flatMap((side) => {
    const samples = runs[side].flatMap((x) => [x.flows, x.calls]);
    const failed = samples.reduce((n, x) => n + x.failed, 0);
    return failed ? [`${side}: ${failed} (first: ${samples.find((x) => x.firstFailure)?.firstFailure})`] : [];
  });
  const both = (of: (x: Repeat) => number, digits: number) => [fmt(summarize(runs.proxy.map(of)), digits), fmt(summarize(runs.uplift.map(of)), digits)];
  const row = (label: string, of: (x: Repeat) => number, digits: number, key: keyof typeof verdicts) => {
    const v = verdicts[key];
    return [label, ...both(of, digits), fmt(v.ratio, 2), budgetLabel(v.budget), v.met ? 'yes' : '**no**'];
  };
  const context = (label: string, of: (x: Repeat) => number) => [label, ...both(of, 0), fmt(summarize(ratio(of)), 2), 'context', ''];
  const tables = [
    {
      title: `mrtr-proxy beside mcp-uplift ${found.version} over stdio, one legacy server`,
      columns: ['measure', 'mrtr-proxy', 'mcp-uplift', 'proxy / uplift', 'target', 'met?'],
      rows: [
        row('one interactive round, 1 client, p50 ms', (x) => x.roundP50, 2, 'round'),
        row(`${FLOWS} concurrent interactive flows, flows/s`, (x) => x.flows.throughput, 0, 'flows'),
        row('pass-through, 1 client, calls/s', (x) => x.calls.throughput, 0, 'calls'),
        context(`CPU µs per flow at ${FLOWS} flows`, (x) => x.flows.cpuUs),
        context('CPU µs per pass-through call, 1 client', (x) => x.calls.cpuUs),
      ],
      notes: [
        `Median (min–max) of ${runs.proxy.length} repeats, ratios paired per repeat and judged on their median. One client launches each bridge and keeps its requests in flight on that one stdio connection; both wrap the test fixture over stdio; mrtr-proxy at its default flags.`,
        `mcp-uplift skips what mrtr-proxy keeps: it validates no legacy message, its requestState is a lookup key rather than a sealed state, and it runs one call at a time (its ${FLOWS} flows queue on one lock). CPU: the bridge process alone, from /proc. Load average (1 min): ${loadAtStart[0]} at the start, ${loadAtEnd[0]} at the end.`,
        `Operations that failed or answered wrongly (not counted): ${failures.length ? failures.join('; ') : 'none'}.`,
      ],
    },
  ];
  const chart: BarPanel = {
    kind: 'bars',
    title: `mrtr-proxy / mcp-uplift ${found.version} over stdio (targets: round ≤ 2×, flows ≥ 1×, calls ≥ 0.6×)`,
    unit: '×',
    groups: [
      { label: 'round p50 (lower is better)', bars: [bar('1 client', verdicts.round.ratio)] },
      { label: 'throughput (higher is better)', bars: [bar(`${FLOWS} flows`, verdicts.flows.ratio), bar('1 client, calls', verdicts.calls.ratio)] },
    ],
  };
  return { name: 'uplift', tables, charts: [chart], data: { version: found.version, runs, verdicts, loadAtStart, loadAtEnd } };
}

const bar = (label: string, s: { median: number; min: number; max: number }) => ({ label, value: s.median, min: s.min, max: s.max });
