// Case 1: pass-through overhead of tools/call on a trivial tool (`echo`), at 1 and 32 concurrent
// clients, for an HTTP and a stdio legacy server. Variants, measured interleaved in the same run:
//   direct (v1 SDK)  the official v1 Client talking to the legacy server directly
//   direct (raw)     the bench's raw legacy client talking to it directly (the same client style as
//                    the forwarder and proxy rows, so the hop is all that differs)
//   forwarder        raw legacy client -> bench/forwarder.ts (node:http, no MCP logic) -> server
//   mrtr-proxy       raw 2026-07-28 client -> mrtr-proxy -> server
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { closedLoop, type LoadResult } from '../lib/load.js';
import { LegacyHttpClient, ProxyClient, RawStdioClient } from '../lib/http.js';
import { FIXTURE, Scope } from '../lib/procs.js';
import { fmt, fmtInt, pairedDiff, pairedRatio, summarize, type Summary } from '../lib/stats.js';
import type { Table } from '../lib/table.js';
import type { BarPanel } from '../lib/svg.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

export const VARIANTS = ['direct (v1 SDK)', 'direct (raw)', 'forwarder', 'mrtr-proxy'] as const;
type Variant = (typeof VARIANTS)[number];
type Call = () => Promise<unknown>;

interface Scenario {
  transport: 'http' | 'stdio';
  concurrency: number;
}

interface VariantResult {
  p50: Summary;
  p99: Summary;
  throughput: Summary;
  calls: number;
  errors: number;
}

export interface ScenarioResult extends Scenario {
  variants: Record<Variant, VariantResult>;
  /** Added p50 latency over direct (raw), per repeat, and proxy-added / forwarder-added. */
  proxyAddedP50: Summary;
  forwarderAddedP50: Summary;
  addedRatio: Summary;
  proxyOverForwarderP50: Summary;
  proxyOverForwarderThroughput: Summary;
}

const ARGS = { text: 'hello' };

async function sdkHttp(url: string): Promise<Call> {
  const c = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return () => c.callTool({ name: 'echo', arguments: ARGS });
}

async function sdkStdio(scope: Scope): Promise<Call> {
  const c = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
  scope.defer(() => c.close());
  return () => c.callTool({ name: 'echo', arguments: ARGS });
}

async function setUp(scope: Scope, s: Scenario): Promise<Record<Variant, Call[]>> {
  const n = s.concurrency;
  const times = <T>(f: () => Promise<T>) => Promise.all(Array.from({ length: n }, f));
  const proxyFlags = ['--max-sessions', String(n + 1), '--gather-window', '0'];
  if (s.transport === 'http') {
    const fixture = await scope.fixtureHttp();
    const forwarder = await scope.forwarder(['--target', fixture.url]);
    const proxy = await scope.proxy(['--upstream', fixture.url, ...proxyFlags]);
    return {
      'direct (v1 SDK)': await times(() => sdkHttp(fixture.url)),
      'direct (raw)': await times(async () => {
        const c = await new LegacyHttpClient(fixture.url).init();
        return () => c.tool('echo', ARGS);
      }),
      forwarder: await times(async () => {
        const c = await new LegacyHttpClient(forwarder.url).init();
        return () => c.tool('echo', ARGS);
      }),
      'mrtr-proxy': await times(async () => {
        const c = new ProxyClient(proxy.url);
        return () => c.tool('echo', ARGS);
      }),
    };
  }
  const forwarder = await scope.forwarder(['--stdio', String(n), '--', process.execPath, FIXTURE]);
  const proxy = await scope.proxy([...proxyFlags, '--', process.execPath, FIXTURE]);
  return {
    'direct (v1 SDK)': await times(() => sdkStdio(scope)),
    'direct (raw)': await times(async () => {
      const c = await RawStdioClient.start(process.execPath, [FIXTURE]);
      scope.defer(() => c.close());
      return () => c.tool('echo', ARGS);
    }),
    forwarder: await times(async () => {
      const c = new LegacyHttpClient(forwarder.url); // no session: the forwarder's children are initialized
      return () => c.tool('echo', ARGS);
    }),
    'mrtr-proxy': await times(async () => {
      const c = new ProxyClient(proxy.url);
      return () => c.tool('echo', ARGS);
    }),
  };
}

async function measure(s: Scenario, opts: BenchOptions, timing: { warmMs: number; runMs: number; repeats: number }): Promise<ScenarioResult> {
  const scope = new Scope();
  try {
    const calls = await setUp(scope, s);
    for (const v of VARIANTS) await closedLoop(calls[v], timing.warmMs);
    const runs: Record<Variant, LoadResult[]> = { 'direct (v1 SDK)': [], 'direct (raw)': [], forwarder: [], 'mrtr-proxy': [] };
    for (let r = 0; r < timing.repeats; r++) {
      // Rotate the order so no variant always runs first (or right after another).
      const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
      for (const v of order) runs[v].push(await closedLoop(calls[v], timing.runMs));
      opts.log(
        `  ${s.transport} c=${s.concurrency} repeat ${r + 1}/${timing.repeats}: ${VARIANTS.map((v) => `${v} p50 ${runs[v].at(-1)!.p50.toFixed(3)}ms`).join(', ')}`,
      );
    }
    const variants = {} as Record<Variant, VariantResult>;
    for (const v of VARIANTS) {
      variants[v] = {
        p50: summarize(runs[v].map((x) => x.p50)),
        p99: summarize(runs[v].map((x) => x.p99)),
        throughput: summarize(runs[v].map((x) => x.throughput)),
        calls: runs[v].reduce((a, x) => a + x.calls, 0),
        errors: runs[v].reduce((a, x) => a + x.errors, 0),
      };
    }
    const p50 = (v: Variant) => runs[v].map((x) => x.p50);
    const tput = (v: Variant) => runs[v].map((x) => x.throughput);
    const proxyAdded = pairedDiff(p50('mrtr-proxy'), p50('direct (raw)'));
    const fwdAdded = pairedDiff(p50('forwarder'), p50('direct (raw)'));
    return {
      ...s,
      variants,
      proxyAddedP50: proxyAdded,
      forwarderAddedP50: fwdAdded,
      addedRatio: pairedRatio(proxyAdded.runs, fwdAdded.runs),
      proxyOverForwarderP50: pairedRatio(p50('mrtr-proxy'), p50('forwarder')),
      proxyOverForwarderThroughput: pairedRatio(tput('mrtr-proxy'), tput('forwarder')),
    };
  } finally {
    await scope.close();
  }
}

export async function passthrough(opts: BenchOptions): Promise<CaseResult> {
  const timing = opts.quick ? { warmMs: 300, runMs: 600, repeats: 3 } : { warmMs: 700, runMs: 1500, repeats: 5 };
  // --quick runs the many-clients stdio scenario at 8: 4 × 32 cold stdio children take a minute to start.
  const many = opts.quick ? 8 : 32;
  const scenarios: Scenario[] = [
    { transport: 'http', concurrency: 1 },
    { transport: 'http', concurrency: 32 },
    { transport: 'stdio', concurrency: 1 },
    { transport: 'stdio', concurrency: many },
  ];
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    opts.log(`passthrough: ${s.transport} upstream, ${s.concurrency} concurrent client(s)`);
    results.push(await measure(s, opts, timing));
  }
  const label = (r: Scenario) => `${r.transport} c=${r.concurrency}`;
  const detail: Table = {
    title: 'Pass-through tools/call (echo): latency and throughput, median (min–max) over repeats',
    columns: ['scenario', 'variant', 'p50 ms', 'p99 ms', 'calls/s'],
    rows: results.flatMap((r) => VARIANTS.map((v) => [label(r), v, fmt(r.variants[v].p50, 3), fmt(r.variants[v].p99, 3), fmtInt(r.variants[v].throughput)])),
    notes: [
      `${timing.repeats} repeats of ${timing.runMs} ms after ${timing.warmMs} ms warm-up, variants interleaved; closed loop, one request in flight per client.`,
    ],
  };
  const summary: Table = {
    title: 'Pass-through overhead: mrtr-proxy against the minimal forwarder (paired per repeat)',
    columns: ['scenario', 'proxy adds (p50 ms)', 'forwarder adds (p50 ms)', 'added ratio', 'p50 proxy/fwd', 'throughput proxy/fwd'],
    rows: results.map((r) => [
      label(r),
      fmt(r.proxyAddedP50, 3),
      fmt(r.forwarderAddedP50, 3),
      fmt(r.addedRatio, 1),
      fmt(r.proxyOverForwarderP50),
      fmt(r.proxyOverForwarderThroughput),
    ]),
    notes: ['"adds" = p50 of the variant minus p50 of direct (raw) in the same repeat; "added ratio" = proxy adds / forwarder adds.'],
  };
  const bar = (r: ScenarioResult, key: 'p50' | 'throughput') =>
    VARIANTS.map((v) => ({ label: v, value: r.variants[v][key].median, min: r.variants[v][key].min, max: r.variants[v][key].max }));
  const charts: BarPanel[] = [
    {
      kind: 'bars',
      title: '1. Pass-through tools/call: p50 latency (lower is better)',
      unit: 'ms',
      log: true,
      groups: results.map((r) => ({ label: label(r), bars: bar(r, 'p50') })),
    },
    {
      kind: 'bars',
      title: '1. Pass-through tools/call: throughput (higher is better)',
      unit: 'calls/s',
      groups: results.map((r) => ({ label: label(r), bars: bar(r, 'throughput') })),
    },
  ];
  return { name: 'passthrough', tables: [summary, detail], charts, data: { timing, scenarios: results } };
}
