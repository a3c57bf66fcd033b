// Case 5: shared legacy sessions, measured against the exclusive layout
// in the same run. (a) N concurrent interactive calls (`ask-name`, each with its own greeting and
// answer, checked for cross-talk) against one legacy Streamable HTTP server: legacy sessions used.
// (b) 16 concurrent pass-through calls over stdio: legacy child processes and RSS of the proxy and
// its children, against one legacy server started alone plus an idle proxy.
import { performance } from 'node:perf_hooks';
import { ProxyClient, type Json } from '../lib/http.js';
import { descendants, FIXTURE, isWatchdog, peakOfTree, Scope, rssOf, sleep, type Running } from '../lib/procs.js';
import { fmt, fmtInt, summarize } from '../lib/stats.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

const ELICIT = { elicitation: { form: {} } };

async function sessionsOf(url: string): Promise<{ open: number; held: number; sharedCalls: number }> {
  const body = (await (await fetch(new URL('/readyz', url))).json()) as Json;
  return body['upstreams']['default']['sessions'];
}

interface InteractiveRun {
  calls: number;
  maxSessions: number;
  crossTalk: number;
  failed: number;
  seconds: number;
}

async function interactiveCalls(n: number, extra: string[]): Promise<InteractiveRun> {
  const scope = new Scope();
  try {
    const upstream = await scope.fixtureHttp();
    const proxy = await scope.proxy(['--upstream', upstream.url, '--gather-window', '0', '--session-wait', '120', ...extra]);
    const client = new ProxyClient(proxy.url, ELICIT);
    let maxSessions = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxSessions = Math.max(maxSessions, (await sessionsOf(proxy.url)).open);
        await sleep(100);
      }
    })();
    const t0 = performance.now();
    let failed = 0;
    let crossTalk = 0;
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const args = { greeting: `g${i}` };
        try {
          const round = await client.tool('ask-name', args);
          const key = Object.keys(round['inputRequests'] as Json)[0]!;
          const done = await client.tool('ask-name', args, {
            requestState: round['requestState'],
            inputResponses: { [key]: { action: 'accept', content: { name: `n${i}` } } },
          });
          if (done['content']?.[0]?.text !== `g${i}, n${i}!`) crossTalk++;
        } catch {
          failed++;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    sampling = false;
    await sampler;
    return { calls: n, maxSessions, crossTalk, failed, seconds };
  } finally {
    await scope.close();
  }
}

interface StdioRun {
  children: number;
  rss: number;
  baseline: number;
  calls: number;
}

/** Max legacy children and tree RSS while 16 clients keep a pass-through call each in flight for `ms`. */
async function stdioPassThrough(extra: string[], ms: number): Promise<StdioRun> {
  const scope = new Scope();
  try {
    const proxy = await scope.proxy(['--gather-window', '0', ...extra, '--', process.execPath, FIXTURE]);
    const pid = proxy.child.pid!;
    const client = new ProxyClient(proxy.url, {});
    await client.tool('echo', { text: 'warm' });
    await sleep(500);
    // Baseline: the idle proxy itself (and its watchdog) plus one legacy server started alone.
    const alone: Running = await scope.start(process.execPath, [FIXTURE], /fixture ready on stdio/);
    await sleep(300);
    const idleProxy = [pid, ...descendants(pid).filter(isWatchdog)].reduce((s, p) => s + rssOf(p), 0);
    const baseline = idleProxy + rssOf(alone.child.pid!);
    let calls = 0;
    const until = performance.now() + ms;
    const { children, rss } = await peakOfTree(pid, () =>
      Promise.all(
        Array.from({ length: 16 }, async () => {
          while (performance.now() < until) {
            await client.tool('echo', { text: 'x' });
            calls++;
          }
        }),
      ),
    );
    return { children, rss, baseline, calls };
  } finally {
    await scope.close();
  }
}

export async function sharing(opts: BenchOptions): Promise<CaseResult> {
  const n = opts.quick ? 200 : 1000;
  opts.log(`sharing: ${n} concurrent interactive calls, shared sessions (defaults)`);
  const shared = await interactiveCalls(n, []);
  opts.log(`  ${shared.maxSessions} sessions, ${shared.crossTalk} crossed, ${shared.failed} failed, ${shared.seconds.toFixed(1)} s`);
  // One session per call, as before issue 10; 200 calls already show it (1,000 SDK sessions take minutes to open).
  const m = Math.min(n, 200);
  opts.log(`sharing: ${m} concurrent interactive calls, exclusive layout (--calls-per-session 1, --max-sessions ${m})`);
  const exclusive = await interactiveCalls(m, ['--calls-per-session', '1', '--max-sessions', String(m), '--spare-sessions', '0']);
  opts.log(`  ${exclusive.maxSessions} sessions, ${exclusive.crossTalk} crossed, ${exclusive.failed} failed, ${exclusive.seconds.toFixed(1)} s`);
  const ms = opts.quick ? 3000 : 8000;
  const repeats = opts.quick ? 1 : 3;
  const stdio: StdioRun[] = [];
  const stdioExclusive: StdioRun[] = [];
  for (let r = 0; r < repeats; r++) {
    opts.log(`sharing: 16 concurrent pass-through calls over stdio, repeat ${r + 1}/${repeats}`);
    stdio.push(await stdioPassThrough([], ms));
    stdioExclusive.push(await stdioPassThrough(['--calls-per-session', '1'], ms));
  }
  const mib = (b: number) => b / 2 ** 20;
  const row = (label: string, runs: StdioRun[]) => [
    label,
    fmt(summarize(runs.map((r) => r.children)), 0),
    fmt(summarize(runs.map((r) => mib(r.rss))), 0),
    fmt(summarize(runs.map((r) => mib(r.baseline))), 0),
    fmt(summarize(runs.map((r) => r.rss / r.baseline)), 2),
    fmtInt(summarize(runs.map((r) => (r.calls / ms) * 1000))),
  ];
  const tables = [
    {
      title: 'Concurrent interactive calls against one legacy Streamable HTTP server (each with its own answer)',
      columns: ['layout', 'calls', 'legacy sessions (max)', 'crossed answers', 'failed', 'seconds for all'],
      rows: [
        [
          'shared (default --calls-per-session 256)',
          String(shared.calls),
          String(shared.maxSessions),
          String(shared.crossTalk),
          String(shared.failed),
          shared.seconds.toFixed(1),
        ],
        [
          'exclusive (--calls-per-session 1)',
          String(exclusive.calls),
          String(exclusive.maxSessions),
          String(exclusive.crossTalk),
          String(exclusive.failed),
          exclusive.seconds.toFixed(1),
        ],
      ],
      notes: ['Sessions are the pool sessions on /readyz, sampled every 100 ms; the control session adds one.'],
    },
    {
      title: '16 concurrent pass-through tools/call over stdio: legacy children and RSS (proxy + children)',
      columns: ['layout', 'legacy children (max)', 'RSS MiB (max)', 'baseline MiB', 'RSS / baseline', 'calls/s'],
      rows: [row('shared (default)', stdio), row('one child per call (--calls-per-session 1)', stdioExclusive)],
      notes: [
        `Baseline: the idle proxy (with its watchdog) plus one legacy server started alone. Median (min–max) of ${repeats} repeat(s), ${ms / 1000} s each; the children include the control session's.`,
      ],
    },
  ];
  return { name: 'sharing', tables, charts: [], data: { shared, exclusive, stdio, stdioExclusive } };
}
