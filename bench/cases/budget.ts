// Case 9: budgets against the floor. mrtr-proxy (default flags) and the floor bridge
// (floor-bridge.ts: parse, route, forward, seal and match the retry, nothing else) each in front of
// the same legacy stdio server, 16 clients each keeping one operation in flight, and the CPU of the
// bridge process alone per operation (from /proc) as a ratio proxy / floor, paired per repeat:
// a pass-through `tools/call` and an interactive flow (call, input_required, retry, result), over
// the stdio front (one client connection with 16 requests in flight, as the stdio front allows)
// and over HTTP (16 clients). Both bridges are warmed up at length first (JIT, pooled children,
// learned tools), and the two alternate within each repeat.
import os from 'node:os';
import { fmt, summarize } from '../lib/stats.js';
import { budgetLabel, judge, type Budget, type Verdict } from '../lib/budget.js';
import { flow, measure, passCall, startFloor, startProxy, type Bridge, type Front, type Operation, type Sample } from '../lib/bridges.js';
import { Scope } from '../lib/procs.js';
import type { BarPanel } from '../lib/svg.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

const CLIENTS = 16;
type Kind = 'call' | 'flow';
const OPERATIONS: Record<Kind, Operation> = { call: passCall, flow };
export const BUDGETS: Record<Kind, Budget> = { call: { atMost: 2.5 }, flow: { atMost: 2 } };
const LABEL: Record<Kind, string> = { call: 'pass-through call', flow: 'interactive flow' };

interface Scenario {
  front: Front;
  kind: Kind;
  floor: Sample[];
  proxy: Sample[];
  verdict: Verdict;
  loadAverage: number[];
}

async function runFront(front: Front, opts: BenchOptions): Promise<Scenario[]> {
  const repeats = opts.quick ? 2 : 6;
  const windowMs = opts.quick ? 1000 : 3000;
  const warmMs = opts.quick ? 1500 : 10_000;
  const scope = new Scope();
  try {
    const floor = await startFloor(scope, front);
    const proxy = await startProxy(scope, front);
    const loadAverage = os.loadavg().map((x) => Math.round(x * 100) / 100);
    const out: Scenario[] = [];
    for (const kind of ['call', 'flow'] as const) {
      const op = OPERATIONS[kind];
      opts.log(`budget: ${front} front, ${LABEL[kind]}, warm-up ${warmMs / 1000} s each`);
      for (const b of [floor, proxy]) await measure(b, op, CLIENTS, warmMs);
      const samples: Record<string, Sample[]> = { floor: [], proxy: [] };
      for (let r = 0; r < repeats; r++) {
        opts.log(`budget: ${front} front, ${LABEL[kind]}, repeat ${r + 1}/${repeats}`);
        const order: Array<[string, Bridge]> =
          r % 2 === 0
            ? [
                ['floor', floor],
                ['proxy', proxy],
              ]
            : [
                ['proxy', proxy],
                ['floor', floor],
              ];
        for (const [name, b] of order) samples[name]!.push(await measure(b, op, CLIENTS, windowMs));
      }
      const f = samples['floor']!;
      const p = samples['proxy']!;
      out.push({
        front,
        kind,
        floor: f,
        proxy: p,
        verdict: judge(
          p.map((x, i) => x.cpuUs / f[i]!.cpuUs),
          BUDGETS[kind],
        ),
        loadAverage,
      });
    }
    return out;
  } finally {
    await scope.close();
  }
}

export async function budget(opts: BenchOptions): Promise<CaseResult> {
  const scenarios = [...(await runFront('stdio', opts)), ...(await runFront('http', opts))];
  const loadAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const rows = scenarios.map((s) => [
    `${LABEL[s.kind]}, ${s.front}`,
    fmt(summarize(s.floor.map((x) => x.cpuUs)), 0),
    fmt(summarize(s.proxy.map((x) => x.cpuUs)), 0),
    fmt(s.verdict.ratio, 2),
    budgetLabel(s.verdict.budget),
    s.verdict.met ? 'yes' : '**no**',
    fmt(summarize(s.floor.map((x) => x.throughput)), 0),
    fmt(summarize(s.proxy.map((x) => x.throughput)), 0),
  ]);
  const repeats = scenarios[0]!.floor.length;
  const failures = scenarios.flatMap((s) =>
    (['floor', 'proxy'] as const).flatMap((side) => {
      const failed = s[side].reduce((n, x) => n + x.failed, 0);
      const first = s[side].find((x) => x.firstFailure)?.firstFailure;
      return failed ? [`${side}, ${LABEL[s.kind]}, ${s.front}: ${failed} failed (first: ${first})`] : [];
    }),
  );
  const loads = scenarios.map((s) => s.loadAverage[0]).join(', ');
  const tables = [
    {
      title: `CPU per operation against the floor bridge, ${CLIENTS} clients`,
      columns: ['case', 'floor µs/op', 'proxy µs/op', 'proxy / floor', 'budget', 'met?', 'floor ops/s', 'proxy ops/s'],
      rows,
      notes: [
        `CPU of the bridge process alone (utime + stime from /proc, legacy children not counted) over each window, per operation; median (min–max) of ${repeats} repeats, the ratio paired per repeat and judged on its median. A flow is one operation: the call, its input_required, the retry and the result.`,
        `Both bridges in front of the test fixture over stdio; mrtr-proxy at its default flags. Stdio front: one client launches the bridge and keeps ${CLIENTS} requests in flight on its connection; HTTP: ${CLIENTS} clients. Load average (1 min) when each front started: ${loads}; at the end: ${loadAtEnd[0]}.`,
        `Operations that failed or answered wrongly (not counted): ${failures.length ? failures.join('; ') : 'none'}.`,
      ],
    },
  ];
  const chart: BarPanel = {
    kind: 'bars',
    title: `CPU per operation, mrtr-proxy / floor bridge, ${CLIENTS} clients (budget: ≤ 2.5× a call, ≤ 2× a flow)`,
    unit: '×',
    groups: (['call', 'flow'] as const).map((kind) => ({
      label: LABEL[kind],
      bars: scenarios
        .filter((s) => s.kind === kind)
        .map((s) => ({ label: `${s.front} front`, value: s.verdict.ratio.median, min: s.verdict.ratio.min, max: s.verdict.ratio.max })),
    })),
  };
  return { name: 'budget', tables, charts: [chart], data: { scenarios, loadAtEnd } };
}
