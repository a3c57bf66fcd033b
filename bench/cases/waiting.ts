// Case 3: waiting users. Every suspended interaction holds one legacy session (HTTP upstream), so
// the proxy runs with --max-sessions 10100 --spare-sessions 0 against bench/legacy-lite.ts, a
// plain node:http legacy server that holds sessions cheaply. The proxy is the real main() wrapped
// by bench/proxy-probe.ts, which reports heap and RSS after a full GC on SIGUSR2. The slope of
// memory over the number of suspended interactions is the cost of one waiting user.
// Also: the requestState size after one, three and ten rounds.
import { inParallel } from '../lib/load.js';
import { performance } from 'node:perf_hooks';
import { ALL_CAPS, ProxyClient, type Json } from '../lib/http.js';
import { Scope, rssOf, sleep, type Running } from '../lib/procs.js';
import { fmt, fmtInt, linearFit, summarize } from '../lib/stats.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

interface Probe {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Probes sent to each proxy process: its answers are numbered from 1 (proxy-probe.ts). */
const probes = new Map<number, number>();
export async function probe(p: Running): Promise<Probe> {
  const n = (probes.get(p.child.pid!) ?? 0) + 1;
  probes.set(p.child.pid!, n);
  process.kill(p.child.pid!, 'SIGUSR2');
  const re = new RegExp(`probe-memory (\\{"n":${n},[^\\n]*\\})`);
  for (let i = 0; i < 200; i++) {
    const m = re.exec(p.stderr());
    if (m) return JSON.parse(m[1]!) as Probe;
    await sleep(50);
  }
  throw new Error('the proxy probe did not answer SIGUSR2');
}

interface Point {
  suspended: number;
  rss: number;
  heapUsed: number;
  external: number;
  vmRss: number;
}

async function ladder(steps: number[], opts: BenchOptions): Promise<{ points: Point[]; createPerSecond: number }> {
  const scope = new Scope();
  try {
    const lite = await scope.lite();
    const proxy = await scope.proxy(
      [
        '--upstream',
        lite.url,
        '--max-sessions',
        String(steps.at(-1)! + 100),
        '--spare-sessions',
        '0',
        '--gather-window',
        '0',
        '--session-wait',
        '120',
        '--connect-timeout',
        '120',
      ],
      { probe: true, nodeArgs: ['--expose-gc'] },
    );
    const client = new ProxyClient(proxy.url, ALL_CAPS);
    // Warm-up: one complete round trip and a few echoes, so code paths and caches exist at 0.
    for (let i = 0; i < 20; i++) {
      await client.tool('echo', { text: 'x' });
      const r = await client.tool('ask', { rounds: 1 });
      const key = Object.keys(r['inputRequests'] as Json)[0]!;
      await client.tool('ask', { rounds: 1 }, { requestState: r['requestState'], inputResponses: { [key]: { action: 'accept', content: { name: 'w' } } } });
    }
    await sleep(200);
    const points: Point[] = [];
    const sample = async (suspended: number) => {
      const m = await probe(proxy);
      points.push({ suspended, rss: m.rss, heapUsed: m.heapUsed, external: m.external, vmRss: rssOf(proxy.child.pid!) });
    };
    await sample(0);
    let created = 0;
    let busyMs = 0;
    const states: string[] = [];
    for (const target of steps) {
      const t0 = performance.now();
      const want = target - created;
      await inParallel(want, 32, async () => {
        const r = await client.tool('ask', { rounds: 1 });
        if (r['resultType'] !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(r)}`);
        states.push(r['requestState'] as string);
      });
      busyMs += performance.now() - t0;
      created = target;
      await sleep(300);
      await sample(target);
      const last = points.at(-1)!;
      opts.log(`  ${target} suspended: heap ${(last.heapUsed / 2 ** 20).toFixed(1)} MiB, rss ${(last.rss / 2 ** 20).toFixed(1)} MiB`);
    }
    return { points, createPerSecond: (created / busyMs) * 1000 };
  } finally {
    await scope.close();
  }
}

async function stateSizes(): Promise<Array<{ round: number; chars: number; bodyBytes: number }>> {
  const scope = new Scope();
  try {
    const lite = await scope.lite();
    const proxy = await scope.proxy(['--upstream', lite.url, '--gather-window', '0']);
    const client = new ProxyClient(proxy.url, ALL_CAPS);
    const out: Array<{ round: number; chars: number; bodyBytes: number }> = [];
    let { reply, body } = await client.call('tools/call', { name: 'ask', arguments: { rounds: 10 } });
    for (let round = 1; round <= 10; round++) {
      const r = body['result'] as Json;
      if (r['resultType'] !== 'input_required') throw new Error(`round ${round}: ${JSON.stringify(body)}`);
      out.push({ round, chars: (r['requestState'] as string).length, bodyBytes: Buffer.byteLength(reply.text) });
      const key = Object.keys(r['inputRequests'] as Json)[0]!;
      ({ reply, body } = await client.call(
        'tools/call',
        { name: 'ask', arguments: { rounds: 10 } },
        { requestState: r['requestState'], inputResponses: { [key]: { action: 'accept', content: { name: `n${round}` } } } },
      ));
    }
    return out;
  } finally {
    await scope.close();
  }
}

export async function waiting(opts: BenchOptions): Promise<CaseResult> {
  const steps = opts.quick ? [100, 1000, 2000] : [100, 1000, 5000, 10000];
  const repeats = 1; // a 10,000 ladder takes ~2 minutes; the spread is the per-segment slope below
  const ladders: Array<{ points: Point[]; createPerSecond: number }> = [];
  for (let r = 0; r < repeats; r++) {
    opts.log(`waiting users: ladder ${r + 1}/${repeats} up to ${steps.at(-1)} suspended interactions`);
    ladders.push(await ladder(steps, opts));
  }
  const fit = (key: 'heapUsed' | 'rss' | 'vmRss') =>
    summarize(
      ladders.map(
        (l) =>
          linearFit(
            l.points.filter((p) => p.suspended > 0).map((p) => p.suspended),
            l.points.filter((p) => p.suspended > 0).map((p) => p[key]),
          ).slope,
      ),
    );
  const heapPer = fit('heapUsed');
  const rssPer = fit('rss');
  const at = (n: number, key: 'heapUsed' | 'rss') => summarize(ladders.map((l) => l.points.find((p) => p.suspended === n)![key] / 2 ** 20));
  // Marginal cost per segment of the (first) ladder: how the per-interaction cost changes with N.
  const segs = ladders[0]!.points.filter((p) => p.suspended > 0);
  const segments = segs.slice(1).map((p, i) => ({
    from: segs[i]!.suspended,
    to: p.suspended,
    heapPer: (p.heapUsed - segs[i]!.heapUsed) / (p.suspended - segs[i]!.suspended),
    rssPer: (p.rss - segs[i]!.rss) / (p.suspended - segs[i]!.suspended),
  }));
  const sizes = await stateSizes();
  const pick = sizes.filter((s) => [1, 3, 10].includes(s.round));
  const tables = [
    {
      title: 'Waiting users: proxy memory with N suspended interactions (HTTP upstream, one legacy session each), after full GC',
      columns: ['suspended', 'heap used MiB', 'RSS MiB'],
      rows: [0, ...steps].map((n) => [n.toLocaleString('en-US'), fmt(at(n, 'heapUsed'), 1), fmt(at(n, 'rss'), 1)]),
      notes: [
        `Per suspended interaction (least-squares slope ${steps[0]}–${steps.at(-1)}): heap ${fmtInt(heapPer)} bytes, RSS ${fmtInt(rssPer)} bytes; ${repeats} ladder(s).`,
        `Marginal bytes per interaction by segment (heap / RSS): ${segments.map((g) => `${g.from}→${g.to}: ${Math.round(g.heapPer).toLocaleString('en-US')} / ${Math.round(g.rssPer).toLocaleString('en-US')}`).join('; ')}.`,
        `Suspending rate while filling (32 concurrent clients, each a new legacy session): ${fmtInt(summarize(ladders.map((l) => l.createPerSecond)))} interactions/s.`,
      ],
    },
    {
      title: 'requestState size by round (legacy tool asking 10 times in a row)',
      columns: ['round', 'requestState chars', 'input_required body bytes'],
      rows: pick.map((s) => [String(s.round), String(s.chars), String(s.bodyBytes)]),
    },
  ];
  const charts = [
    {
      kind: 'lines' as const,
      title: '3. Proxy memory by suspended interactions (after full GC)',
      xLabel: 'suspended interactions',
      unit: 'MiB',
      series: ladders.flatMap((l, i) => [
        { label: `heap used${repeats > 1 ? ` #${i + 1}` : ''}`, points: l.points.map((p) => ({ x: p.suspended, y: p.heapUsed / 2 ** 20 })) },
        { label: `RSS${repeats > 1 ? ` #${i + 1}` : ''}`, points: l.points.map((p) => ({ x: p.suspended, y: p.rss / 2 ** 20 })) },
      ]),
    },
  ];
  return { name: 'waiting', tables, charts, data: { steps, ladders, segments, bytesPerInteraction: { heap: heapPer, rss: rssPer }, requestState: sizes } };
}
