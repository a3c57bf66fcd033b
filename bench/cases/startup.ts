// Case 4: start-up. Launch to ready (the `listening on` line) and launch to the first completed
// tools/call, for mrtr-proxy with an HTTP upstream that is already running and with a cold stdio
// upstream (the proxy starts the legacy child itself). Baselines in the same run:
//   forwarder   bench/forwarder.ts: a node:http process, the floor for any Node proxy's start-up;
//               its first call is a raw legacy initialize + tools/call through it
//   direct      the v1 SDK client starting the same stdio legacy server itself (spawn, initialize,
//               first call): what the first call costs without a proxy.
// And launch to the first answered `server/discover` through the proxy with a cold stdio upstream,
// against the bench's raw stdio client spawning the server, initializing it and listing its tools
// (what a client needs to know about a legacy server before it can use it).
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LegacyHttpClient, ProxyClient, RawStdioClient } from '../lib/http.js';
import { FIXTURE, Scope } from '../lib/procs.js';
import { fmt, pairedRatio, summarize, type Summary } from '../lib/stats.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

const ROWS = [
  'mrtr-proxy, HTTP upstream',
  'mrtr-proxy, cold stdio upstream',
  'forwarder, HTTP upstream',
  'direct v1 SDK client, cold stdio',
  'mrtr-proxy, cold stdio: server/discover',
  'direct raw, cold stdio: initialize + tools/list',
] as const;
type Row = (typeof ROWS)[number];

async function once(row: Row, fixtureUrl: string): Promise<{ ready: number; first: number }> {
  const scope = new Scope();
  try {
    const t0 = performance.now();
    if (row === 'direct v1 SDK client, cold stdio') {
      const c = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
      scope.defer(() => c.close());
      await c.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
      const ready = performance.now() - t0;
      await c.callTool({ name: 'echo', arguments: { text: 'hello' } });
      return { ready, first: performance.now() - t0 };
    }
    if (row === 'direct raw, cold stdio: initialize + tools/list') {
      const c = await RawStdioClient.start(process.execPath, [FIXTURE]);
      scope.defer(() => c.close());
      const ready = performance.now() - t0;
      await c.request('tools/list', {});
      return { ready, first: performance.now() - t0 };
    }
    if (row === 'mrtr-proxy, cold stdio: server/discover') {
      const p = await scope.proxy(['--', process.execPath, FIXTURE]);
      const ready = performance.now() - t0;
      const { body } = await new ProxyClient(p.url).call('server/discover', {});
      if (!body['result']) throw new Error(`server/discover failed: ${JSON.stringify(body)}`);
      return { ready, first: performance.now() - t0 };
    }
    if (row === 'forwarder, HTTP upstream') {
      const f = await scope.forwarder(['--target', fixtureUrl]);
      const ready = performance.now() - t0;
      await (await new LegacyHttpClient(f.url).init()).tool('echo', { text: 'hello' });
      return { ready, first: performance.now() - t0 };
    }
    const upstream = row === 'mrtr-proxy, HTTP upstream' ? ['--upstream', fixtureUrl] : ['--', process.execPath, FIXTURE];
    const p = await scope.proxy(upstream);
    const ready = performance.now() - t0;
    await new ProxyClient(p.url).tool('echo', { text: 'hello' });
    return { ready, first: performance.now() - t0 };
  } finally {
    await scope.close();
  }
}

export async function startup(opts: BenchOptions): Promise<CaseResult> {
  const repeats = opts.quick ? 3 : 10;
  const runs: Record<Row, { ready: number[]; first: number[] }> = Object.fromEntries(ROWS.map((r) => [r, { ready: [], first: [] }])) as never;
  const scope = new Scope();
  try {
    const fixture = await scope.fixtureHttp();
    for (const row of ROWS) await once(row, fixture.url); // warm the file cache
    for (let i = 0; i < repeats; i++) {
      for (const row of ROWS) {
        const r = await once(row, fixture.url);
        runs[row].ready.push(r.ready);
        runs[row].first.push(r.first);
      }
    }
    opts.log(`  start-up: ${ROWS.map((r) => `${r} ready ${summarize(runs[r].ready).median.toFixed(0)} ms`).join(', ')}`);
  } finally {
    await scope.close();
  }
  const s = (row: Row, k: 'ready' | 'first'): Summary => summarize(runs[row][k]);
  const ratio = (a: Row, b: Row, k: 'ready' | 'first') => pairedRatio(runs[a][k], runs[b][k]);
  const tables = [
    {
      title: 'Start-up: launch to ready and to the first completed tools/call (ms), median (min–max)',
      columns: ['what', 'to ready', 'to first call', 'first call vs baseline'],
      rows: [
        [
          'mrtr-proxy, HTTP upstream',
          fmt(s('mrtr-proxy, HTTP upstream', 'ready'), 0),
          fmt(s('mrtr-proxy, HTTP upstream', 'first'), 0),
          `${fmt(ratio('mrtr-proxy, HTTP upstream', 'forwarder, HTTP upstream', 'first'))}× forwarder`,
        ],
        ['forwarder, HTTP upstream (node:http floor)', fmt(s('forwarder, HTTP upstream', 'ready'), 0), fmt(s('forwarder, HTTP upstream', 'first'), 0), ''],
        [
          'mrtr-proxy, cold stdio upstream',
          fmt(s('mrtr-proxy, cold stdio upstream', 'ready'), 0),
          fmt(s('mrtr-proxy, cold stdio upstream', 'first'), 0),
          `${fmt(ratio('mrtr-proxy, cold stdio upstream', 'direct v1 SDK client, cold stdio', 'first'))}× direct`,
        ],
        [
          'direct v1 SDK client, cold stdio (connected = ready)',
          fmt(s('direct v1 SDK client, cold stdio', 'ready'), 0),
          fmt(s('direct v1 SDK client, cold stdio', 'first'), 0),
          '',
        ],
        [
          'mrtr-proxy, cold stdio: launch to first server/discover',
          fmt(s('mrtr-proxy, cold stdio: server/discover', 'ready'), 0),
          fmt(s('mrtr-proxy, cold stdio: server/discover', 'first'), 0),
          `${fmt(ratio('mrtr-proxy, cold stdio: server/discover', 'direct raw, cold stdio: initialize + tools/list', 'first'))}× direct`,
        ],
        [
          'direct raw client, cold stdio: spawn + initialize + tools/list',
          fmt(s('direct raw, cold stdio: initialize + tools/list', 'ready'), 0),
          fmt(s('direct raw, cold stdio: initialize + tools/list', 'first'), 0),
          '',
        ],
      ],
      notes: [
        'For the server/discover rows "to first call" is the answered server/discover (the proxy) or tools/list (direct).',
        `${repeats} launches each, interleaved; ready = the proxy's "listening on" log line (it has already initialized one legacy session to describe the server).`,
      ],
    },
  ];
  const charts = [
    {
      kind: 'bars' as const,
      title: '4. Start-up (lower is better)',
      unit: 'ms',
      groups: (['ready', 'first'] as const).map((k) => ({
        label: k === 'ready' ? 'launch to ready' : 'launch to first call',
        bars: ROWS.map((r) => ({ label: r, value: s(r, k).median, min: s(r, k).min, max: s(r, k).max })),
      })),
    },
  ];
  return { name: 'startup', tables, charts, data: { repeats, runsMs: runs } };
}
