// Case 8: an interactive flow through mrtr-proxy beside the same flow in the legacy protocol. One
// flow is `ask-name` asked, answered and completed. Through the proxy (default flags) a raw
// 2026-07-28 client sends the call, gets `input_required`, and retries with the answer; natively one
// v1 SDK client session drives the same fixture and answers its `elicitation/create` as it comes
// (what a legacy client does). Upstreams over stdio and Streamable HTTP with the proxy's HTTP front,
// and stdio end to end (a client that launches the proxy with --stdio, as desktop clients do), at
// one client and at 16 concurrent flows (the native side: 16 calls in flight on its one session),
// answered at once and after a 50 ms think. Variants alternate within each repeat; the ratios are
// paired per repeat.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ProxyClient, ProxyStdioClient, type Json } from '../lib/http.js';
import { closedLoop, type LoadResult } from '../lib/load.js';
import { FIXTURE, PROXY_BIN, peakOfTree, Scope, sleep, TEST_STATE_KEY } from '../lib/procs.js';
import { fmt, median, pairedRatio, summarize } from '../lib/stats.js';
import type { Bar, BarPanel } from '../lib/svg.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';
import { ANSWER } from './interactive-micro.js';

/** The upstream's transport; `stdio-front`: a stdio upstream and the proxy's stdio front. */
type Wire = 'stdio' | 'http' | 'stdio-front';
const ELICIT = { elicitation: { form: {} } };
const THINKS = [0, 50] as const;
const FLOWS = 16;
const WIRE_LABEL: Record<Wire, string> = { stdio: 'stdio upstream', http: 'HTTP upstream', 'stdio-front': 'stdio front and upstream' };

function expectAnswer(result: Json, greeting: string): void {
  const text = (result['content'] as Array<{ text?: string }> | undefined)?.[0]?.text;
  if (text !== `${greeting}, Ada!`) throw new Error(`flow answered wrongly: ${JSON.stringify(result)}`);
}

/** One flow through the proxy: the call, its `input_required`, the retry with the answer after `thinkMs`. */
async function proxyFlow(client: ProxyClient | ProxyStdioClient, greeting: string, thinkMs: number): Promise<void> {
  const round = await client.tool('ask-name', { greeting });
  if (round['resultType'] !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  const key = Object.keys(round['inputRequests'] as Json)[0]!;
  if (thinkMs > 0) await sleep(thinkMs);
  const done = await client.tool('ask-name', { greeting }, { requestState: round['requestState'], inputResponses: { [key]: ANSWER } });
  expectAnswer(done, greeting);
}

/** A v1 SDK client session that answers every elicitation with ANSWER after `think.ms`. */
async function nativeClient(wire: Wire, url: string | undefined, think: { ms: number }): Promise<Client> {
  const client = new Client({ name: 'bench-native', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => {
    if (think.ms > 0) await sleep(think.ms);
    return ANSWER as never;
  });
  const transport =
    wire === 'http'
      ? new StreamableHTTPClientTransport(new URL(url!))
      : new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' });
  await client.connect(transport);
  return client;
}

async function nativeFlow(client: Client, greeting: string): Promise<void> {
  expectAnswer((await client.callTool({ name: 'ask-name', arguments: { greeting } })) as Json, greeting);
}

interface Side {
  /** p50 of one flow at one client, ms. */
  p50: number;
  /** 16 concurrent flows. */
  load: LoadResult;
  /** Stdio through the proxy: processes (proxy and legacy children) and RSS of them all, at 16 flows. */
  processes?: number;
  rssMiB?: number;
}

interface Scenario {
  wire: Wire;
  thinkMs: number;
  proxy: Side[];
  native: Side[];
}

async function scenario(wire: Wire, thinkMs: number, opts: BenchOptions): Promise<Scenario> {
  const repeats = opts.quick ? 2 : 5;
  const sequential = thinkMs > 0 ? (opts.quick ? 10 : 20) : opts.quick ? 100 : 300;
  const windowMs = opts.quick ? 1500 : 3000;
  const scope = new Scope();
  const out: Scenario = { wire, thinkMs, proxy: [], native: [] };
  try {
    const fixture = wire === 'http' ? await scope.fixtureHttp() : undefined;
    let client: ProxyClient | ProxyStdioClient;
    let proxyPid: number;
    if (wire === 'stdio-front') {
      const stdio = new ProxyStdioClient(process.execPath, [PROXY_BIN, '--stdio', '--', process.execPath, FIXTURE], { MRTR_STATE_KEY: TEST_STATE_KEY }, ELICIT);
      scope.defer(() => stdio.close());
      client = stdio;
      proxyPid = stdio.pid!;
    } else {
      const proxy = await scope.proxy(fixture ? ['--upstream', fixture.url] : ['--', process.execPath, FIXTURE]);
      client = new ProxyClient(proxy.url, ELICIT);
      proxyPid = proxy.child.pid!;
    }
    const think = { ms: thinkMs };
    const native = await nativeClient(wire, fixture?.url, think);
    scope.defer(() => native.close());
    let n = 0;
    const viaProxy = () => proxyFlow(client, `p${++n}`, thinkMs);
    const direct = () => nativeFlow(native, `n${++n}`);
    // Warm-up: sessions, children, JIT on both sides.
    think.ms = 0;
    for (let i = 0; i < 100; i++) {
      await proxyFlow(client, `w${i}`, 0);
      await direct();
    }
    await closedLoop(
      Array.from({ length: FLOWS }, () => () => proxyFlow(client, `w${++n}`, 0)),
      500,
    );
    await closedLoop(
      Array.from({ length: FLOWS }, () => direct),
      500,
    );
    think.ms = thinkMs;
    for (let r = 0; r < repeats; r++) {
      opts.log(`rounds: ${wire}, think ${thinkMs} ms, repeat ${r + 1}/${repeats}`);
      const p: number[] = [];
      const d: number[] = [];
      for (let i = 0; i < sequential; i++) {
        const order = (i + r) % 2 === 0 ? [viaProxy, direct] : [direct, viaProxy];
        for (const f of order) {
          const t0 = performance.now();
          await f();
          (f === viaProxy ? p : d).push(performance.now() - t0);
        }
      }
      const first = r % 2 === 0;
      // Sampled every 100 ms: sixteen closed-loop clients leave this process little time to spare.
      const loadProxy = async () =>
        peakOfTree(
          proxyPid,
          () =>
            closedLoop(
              Array.from({ length: FLOWS }, () => viaProxy),
              windowMs,
            ),
          100,
        );
      const loadNative = () =>
        closedLoop(
          Array.from({ length: FLOWS }, () => direct),
          windowMs,
        );
      let lp: Awaited<ReturnType<typeof loadProxy>>;
      let ln: LoadResult;
      if (first) {
        lp = await loadProxy();
        ln = await loadNative();
      } else {
        ln = await loadNative();
        lp = await loadProxy();
      }
      out.proxy.push({ p50: median(p), load: lp.value, ...(wire !== 'http' ? { processes: lp.children + 1, rssMiB: lp.rss / 2 ** 20 } : {}) });
      out.native.push({ p50: median(d), load: ln });
    }
    return out;
  } finally {
    await scope.close();
  }
}

export async function rounds(opts: BenchOptions): Promise<CaseResult> {
  const scenarios: Scenario[] = [];
  for (const wire of ['stdio', 'http', 'stdio-front'] as const) for (const thinkMs of THINKS) scenarios.push(await scenario(wire, thinkMs, opts));
  const rows: string[][] = [];
  for (const s of scenarios) {
    const label = `${WIRE_LABEL[s.wire]}, ${s.thinkMs === 0 ? 'answered at once' : `${s.thinkMs} ms think`}`;
    rows.push([
      label,
      fmt(summarize(s.proxy.map((x) => x.p50)), 3),
      fmt(summarize(s.native.map((x) => x.p50)), 3),
      fmt(
        pairedRatio(
          s.proxy.map((x) => x.p50),
          s.native.map((x) => x.p50),
        ),
        2,
      ),
      fmt(summarize(s.proxy.map((x) => x.load.throughput)), 0),
      fmt(summarize(s.native.map((x) => x.load.throughput)), 0),
      fmt(
        pairedRatio(
          s.proxy.map((x) => x.load.throughput),
          s.native.map((x) => x.load.throughput),
        ),
        2,
      ),
      fmt(summarize(s.proxy.map((x) => x.load.p50)), 1),
      fmt(summarize(s.native.map((x) => x.load.p50)), 1),
      s.wire !== 'http' ? `${fmt(summarize(s.proxy.map((x) => x.processes!)), 0)}, ${fmt(summarize(s.proxy.map((x) => x.rssMiB!)), 0)}` : '',
    ]);
  }
  const repeats = scenarios[0]!.proxy.length;
  const tables = [
    {
      title: 'An interactive flow (ask, answer, result) through mrtr-proxy against the native legacy round, default flags',
      columns: [
        'upstream, answer',
        '1 client p50 ms: proxy',
        'native',
        'proxy / native',
        `${FLOWS} flows/s: proxy`,
        'native',
        'proxy / native',
        `${FLOWS} flows p50 ms: proxy`,
        'native',
        'proxy: processes, RSS MiB (max)',
      ],
      rows,
      notes: [
        `Median (min–max) of ${repeats} repeats; ratios paired per repeat. Native: one v1 SDK client session on the same fixture answering elicitation/create itself (${FLOWS} calls in flight on it). Proxy, HTTP front: a raw 2026-07-28 client, ${FLOWS} clients each with one flow in flight; stdio front: a raw client that launches the proxy with --stdio, ${FLOWS} flows in flight on it. Native runs the fixture over stdio for both stdio rows.`,
        'Processes: the proxy and its legacy children, the control session included, not the watchdog; RSS of them all.',
      ],
    },
  ];
  const ratio = (s: Scenario, of: (x: Side) => number): Bar => {
    const r = pairedRatio(s.proxy.map(of), s.native.map(of));
    return { label: WIRE_LABEL[s.wire], value: r.median, min: r.min, max: r.max };
  };
  const charts: BarPanel[] = THINKS.map((thinkMs) => ({
    kind: 'bars',
    title: `Interactive flows through mrtr-proxy / native legacy round (${thinkMs === 0 ? 'answered at once' : `${thinkMs} ms think`})`,
    unit: '×',
    groups: [
      { label: '1 client, p50 (lower is better)', bars: scenarios.filter((s) => s.thinkMs === thinkMs).map((s) => ratio(s, (x) => x.p50)) },
      {
        label: `${FLOWS} flows, throughput (higher is better)`,
        bars: scenarios.filter((s) => s.thinkMs === thinkMs).map((s) => ratio(s, (x) => x.load.throughput)),
      },
    ],
  }));
  return { name: 'rounds', tables, charts, data: scenarios };
}
